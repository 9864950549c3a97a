/// The kind-specific parts of an ``Entry``.
public enum EntryDetails: Hashable, Sendable {
    case none
    case antiPattern(AntiPattern)
    case checklist(Checklist)
    case decisionTree(DecisionTree)
    case table(Table)
    case example(Example)
}

/// What an anti-pattern adds: why it is wrong and the id of the example that fixes it.
public struct AntiPattern: Codable, Hashable, Sendable {
    /// The prose between the bad part and the good part.
    public var why: String
    /// The id of the ✅ example entry that fixes it, when the section has one.
    public var fix: String?

    public init(why: String, fix: String?) {
        self.why = why
        self.fix = fix
    }
}

/// One check of a checklist.
public struct ChecklistItem: Codable, Hashable, Sendable {
    public var text: String
    /// The sub-heading the item stands under, when the checklist has groups.
    public var group: String?
    /// `true` for `[x]`, `false` for `[ ]`, `nil` for a plain list item.
    public var checked: Bool?
    public var line: Int

    public init(text: String, group: String?, checked: Bool?, line: Int) {
        self.text = text
        self.group = group
        self.checked = checked
        self.line = line
    }
}

/// The items of a checklist, in order; each names its group.
public struct Checklist: Codable, Hashable, Sendable {
    public var items: [ChecklistItem]

    public init(items: [ChecklistItem]) { self.items = items }

    /// The groups in the order they first appear.
    public var groups: [String] {
        var seen = Set<String>()
        return items.compactMap(\.group).filter { seen.insert($0).inserted }
    }
}

/// A node of a decision tree: a question, a branch or an outcome.
public struct TreeNode: Codable, Hashable, Sendable {
    public var label: String
    public var line: Int
    public var children: [TreeNode]

    public init(label: String, line: Int, children: [TreeNode] = []) {
        self.label = label
        self.line = line
        self.children = children
    }

    /// Builds trees from nodes in document order, each with the position of its parent (which
    /// comes before it) or `nil` for a root.
    ///
    /// - Complexity: O(n): children are appended from the end and each list reversed once.
    static func forest(_ nodes: [TreeNode], parents: [Int?]) -> [TreeNode] {
        var built = nodes
        var roots: [TreeNode] = []
        for index in built.indices.reversed() {
            var node = TreeNode(label: "", line: 0)
            swap(&node, &built[index])
            node.children.reverse()
            if let parent = parents[index] {
                built[parent].children.append(node)
            } else {
                roots.append(node)
            }
        }
        return roots.reversed()
    }
}

/// A decision tree: its top-level nodes.
public struct DecisionTree: Codable, Hashable, Sendable {
    public var nodes: [TreeNode]

    public init(nodes: [TreeNode]) { self.nodes = nodes }
}

/// A pipe table: header cells and body rows (ragged rows kept as written).
public struct Table: Codable, Hashable, Sendable {
    public var header: [String]
    public var rows: [[String]]

    public init(header: [String], rows: [[String]]) {
        self.header = header
        self.rows = rows
    }
}

/// What a code example adds: its language and verdict (also in its single ``CodeBlock``).
public struct Example: Codable, Hashable, Sendable {
    public var language: String
    public var verdict: Verdict

    public init(language: String, verdict: Verdict) {
        self.language = language
        self.verdict = verdict
    }
}
