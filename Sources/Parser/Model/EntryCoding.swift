// JSON form of an entry: the common fields of DESIGN.md section 2, then the kind's own fields at
// the same level (`why`/`fix`, `items`/`groups`, `nodes`, `header`/`rows`, `language`/`verdict`);
// `role` only when it is not `content`.
extension Entry: Codable {
    private enum Key: String, CodingKey {
        case id, kind, role, title, skill, breadcrumb, source, markdown, text, code, keywords
        case why, fix, items, groups, nodes, header, rows, language, verdict
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        if role != .content { try c.encode(role, forKey: .role) }
        try c.encode(title, forKey: .title)
        try c.encode(skill, forKey: .skill)
        try c.encode(breadcrumb, forKey: .breadcrumb)
        try c.encode(source, forKey: .source)
        try c.encode(markdown, forKey: .markdown)
        try c.encode(text, forKey: .text)
        try c.encode(code, forKey: .code)
        try c.encode(keywords, forKey: .keywords)
        switch details {
        case .none:
            break
        case .antiPattern(let a):
            try c.encode(a.why, forKey: .why)
            try c.encode(a.fix, forKey: .fix)
        case .checklist(let list):
            try c.encode(list.items, forKey: .items)
            try c.encode(list.groups, forKey: .groups)
        case .decisionTree(let tree):
            try c.encode(tree.nodes, forKey: .nodes)
        case .table(let table):
            try c.encode(table.header, forKey: .header)
            try c.encode(table.rows, forKey: .rows)
        case .example(let example):
            try c.encode(example.language, forKey: .language)
            try c.encode(example.verdict, forKey: .verdict)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        id = try c.decode(String.self, forKey: .id)
        kind = try c.decode(EntryKind.self, forKey: .kind)
        role = try c.decodeIfPresent(EntryRole.self, forKey: .role) ?? .content
        title = try c.decode(String.self, forKey: .title)
        skill = try c.decode(String.self, forKey: .skill)
        breadcrumb = try c.decode([String].self, forKey: .breadcrumb)
        source = try c.decode(SourceSpan.self, forKey: .source)
        markdown = try c.decode(String.self, forKey: .markdown)
        text = try c.decode(String.self, forKey: .text)
        code = try c.decode([CodeBlock].self, forKey: .code)
        keywords = try c.decode([String].self, forKey: .keywords)
        if c.contains(.why) {
            details = .antiPattern(
                AntiPattern(
                    why: try c.decode(String.self, forKey: .why),
                    fix: try c.decodeIfPresent(String.self, forKey: .fix)))
        } else if c.contains(.items) {
            details = .checklist(Checklist(items: try c.decode([ChecklistItem].self, forKey: .items)))
        } else if c.contains(.nodes) {
            details = .decisionTree(DecisionTree(nodes: try c.decode([TreeNode].self, forKey: .nodes)))
        } else if c.contains(.header) {
            details = .table(
                Table(
                    header: try c.decode([String].self, forKey: .header),
                    rows: try c.decode([[String]].self, forKey: .rows)))
        } else if c.contains(.verdict) {
            details = .example(
                Example(
                    language: try c.decode(String.self, forKey: .language),
                    verdict: try c.decode(Verdict.self, forKey: .verdict)))
        } else {
            details = .none
        }
    }
}
