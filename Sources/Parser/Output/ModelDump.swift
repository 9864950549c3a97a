/// A readable dump of parsed skills: each document's entries as an outline of kind, lines, title
/// and id, with the kind-specific parts below; then the diagnostics. `skill parse` prints it, and
/// the parser's fixture tests compare it with checked-in expected files.
public enum ModelDump {
    /// The dump of `skills`, ending with their diagnostics unless `diagnostics` is false.
    public static func render(_ skills: [Skill], diagnostics withDiagnostics: Bool = true) -> String {
        var out: [String] = []
        for skill in skills {
            out.append("skill \(skill.name) (\(skill.path))")
            if !skill.description.isEmpty { out.append("  description: \(oneLine(skill.description))") }
            for field in skill.frontmatter.fields where field.key != "name" && field.key != "description" {
                out.append("  \(field.key): \(oneLine(value(field.value)))")
            }
            if !skill.resources.isEmpty { out.append("  resources: \(skill.resources.joined(separator: ", "))") }
            for document in skill.documents {
                out.append("document \(document.path) (\(document.lineCount) lines)")
                for entry in skill.entries where entry.source.path == document.path && entry.kind != .skill {
                    render(entry, into: &out)
                }
            }
        }
        let diagnostics = skills.flatMap(\.diagnostics)
        if withDiagnostics, !diagnostics.isEmpty {
            out.append("diagnostics:")
            out += diagnostics.map { "  \($0.formatted)" }
        }
        return out.joined(separator: "\n") + "\n"
    }

    private static func render(_ entry: Entry, into out: inout [String]) {
        let depth = entry.id.has("~") ? entry.breadcrumb.count + 1 : max(entry.breadcrumb.count, 1)
        let indent = String(repeating: "  ", count: depth)
        let id = entry.id.utf8
        let anchor = id.firstIndex { $0 == 0x23 || $0 == 0x7E }.map { Substring(id[$0...]) } ?? ""
        let role = entry.role == .content ? "" : " (\(entry.role.rawValue))"
        out.append(
            indent + entry.kind.rawValue + " \(entry.source.line)-\(entry.source.endLine) \"" + oneLine(entry.title) + "\" " + anchor + role
        )
        let more = indent + "  "
        if !entry.keywords.isEmpty { out.append("\(more)keywords: \(entry.keywords.joined(separator: " "))") }
        switch entry.details {
        case .none:
            break
        case .example(let example):
            out.append("\(more)\(example.language.isEmpty ? "(no language)" : example.language) \(example.verdict)")
        case .antiPattern(let anti):
            out.append("\(more)why: \(oneLine(anti.why))")
            if let fix = anti.fix { out.append("\(more)fix: \(fix)") }
        case .checklist(let list):
            for item in list.items {
                let box = item.checked.map { $0 ? "[x] " : "[ ] " } ?? "- "
                out.append("\(more)\(box)\(oneLine(item.text))\(item.group.map { " (\($0))" } ?? "") @\(item.line)")
            }
        case .decisionTree(let tree):
            var stack = tree.nodes.reversed().map { ($0, 0) }
            while let (node, level) = stack.popLast() {
                out.append("\(more)\(String(repeating: "  ", count: level))- \(oneLine(node.label)) @\(node.line)")
                stack += node.children.reversed().map { ($0, level + 1) }
            }
        case .table(let table):
            out.append("\(more)| \(table.header.joined(separator: " | ")) |")
            for row in table.rows { out.append("\(more)| \(row.joined(separator: " | ")) |") }
        }
    }

    private static func value(_ value: YAMLValue) -> String {
        switch value {
        case .string(let s): return s
        case .null: return "null"
        case .list(let values): return "[" + values.map(Self.value).joined(separator: ", ") + "]"
        case .map(let fields): return "{" + fields.map { "\($0.key): \(Self.value($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    private static func oneLine(_ text: String) -> String {
        if text.utf8.count <= 120, !text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) { return text }
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > 120 ? String(flat.prefix(119)) + "…" : flat
    }
}
