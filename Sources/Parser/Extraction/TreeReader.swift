/// Reads decision trees drawn with box characters (`├ └ │ ─`) or arrows (`→`), in or outside a
/// fence, into nodes by indentation.
enum TreeReader {
    private static let drawing: Set<Character> = [
        "├", "└", "│", "─", "┬", "┌", "┐", "┘", "┴", "┼", "╰", "╭", "┃", "┗", "┣", "━", "|", "`", "+",
    ]
    private static let bullets: Set<Character> = ["-", "*", "•", ">", " ", "\t"]
    static let maxDepth = 32

    /// Whether the lines draw a tree that asks or decides: box characters or arrows, and a
    /// question, an arrow or Yes/No/Use outcomes; not a tree of file names.
    static func isDecisionTree(_ lines: [Substring]) -> Bool {
        let nonEmpty = lines.filter { !$0.trimming(" \t").isEmpty }
        guard nonEmpty.count >= 2 else { return false }
        let boxLines = nonEmpty.filter { $0.hasAny(of: ["├", "└", "│"]) }.count
        let arrowLines = nonEmpty.filter { $0.has("→") || $0.has("->") || $0.has("=>") }.count
        guard boxLines >= 2 || arrowLines >= 2 else { return false }
        let labels = nonEmpty.map(label)
        let questions = labels.filter { $0.has("?") }.count
        let outcomes = labels.filter {
            let words = Markers.words($0)
            return ["yes", "no", "use"].contains(words.first ?? "") || words.contains("use")
        }.count
        let files = labels.filter(looksLikeFileName).count
        if files * 2 > labels.count && questions == 0 { return false }
        return questions > 0 || arrowLines > 0 || outcomes >= 2
    }

    /// The nodes of the tree drawn in `lines`; `firstLine` is the file line of `lines[0]`.
    static func nodes(of lines: [Substring], firstLine: Int) -> [TreeNode] {
        // Flat pass: each non-empty line is a node whose depth comes from its label's column.
        var labels: [(label: String, line: Int, parent: Int?)] = []
        var stack: [(column: Int, index: Int)] = []
        for (offset, line) in lines.enumerated() {
            let text = label(line)
            guard !text.isEmpty else { continue }
            let column = line.prefix { drawing.contains($0) || bullets.contains($0) }.count
            while let top = stack.last, top.column >= column { stack.removeLast() }
            if stack.count >= maxDepth { stack.removeLast() }
            labels.append((text, firstLine + offset, stack.last?.index))
            stack.append((column, labels.count - 1))
        }
        return TreeNode.forest(labels.map { TreeNode(label: $0.label, line: $0.line) }, parents: labels.map(\.parent))
    }

    /// A line without its drawing characters and bullets.
    static func label(_ line: Substring) -> String {
        String(line.drop { drawing.contains($0) || bullets.contains($0) }).trimming(" \t")
    }

    private static func looksLikeFileName(_ label: String) -> Bool {
        let first = label.split(separator: " ").first.map(String.init) ?? ""
        if first.hasSuffix("/") { return true }
        guard let dot = first.lastIndex(of: "."), dot != first.startIndex else { return false }
        let ext = first[first.index(after: dot)...]
        return (1...5).contains(ext.count) && ext.allSatisfy { $0.isLetter || $0.isNumber }
    }
}
