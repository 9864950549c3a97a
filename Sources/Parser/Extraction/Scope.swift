/// The facts about a run of blocks (a section's own content, or a document's preamble) that the
/// extractor needs: code verdicts, tables, trees, task lists and ❌/✅-marked items.
struct Scope {
    struct Code {
        var block: Int
        var language: String
        var verdict: Verdict
        /// The short paragraph just before the code that labels it (`❌ Bad:`), if any.
        var label: Int?
    }

    struct Marked {
        var block: Int
        var verdict: Verdict
        var text: String
    }

    var blocks: Range<Int>
    var codes: [Code] = []
    var tables: [TableReader.Found] = []
    var trees: [(block: Int, lines: ClosedRange<Int>, nodes: [TreeNode])] = []
    /// Lists whose items include `[ ]`/`[x]` task items, outermost only: a task list nested in
    /// another is part of that one's items, so each item belongs to one checklist.
    var taskLists: [Int] = []
    var marked: [Marked] = []

    init(blocks range: Range<Int>, in doc: DocumentContext, headingVerdict: Verdict) {
        blocks = range
        let all = doc.blocks
        var labels = Set<Int>()
        // Blocks inside a task list already taken (parents come before their children).
        var inTaskList = Set<Int>()
        for index in range {
            let block = all[index]
            if let parent = block.parent, inTaskList.contains(parent) { inTaskList.insert(index) }
            switch block.kind {
            case .code(let info):
                let language = info.split(separator: " ").first.map { $0.lowercased() } ?? ""
                if Markers.textLanguages.contains(language) {
                    let lines = doc.codeLines(index)
                    if TreeReader.isDecisionTree(lines) {
                        trees.append((index, block.line...block.endLine, TreeReader.nodes(of: lines, firstLine: block.line + 1)))
                    }
                    continue
                }
                var verdict = Markers.verdict(ofCode: block.text)
                var label: Int?
                // A short paragraph just before the code labels it when it judges it (`❌ Bad`) or
                // introduces it (`The fix:`); other prose stays prose.
                if index > range.lowerBound, case .paragraph = all[index - 1].kind, all[index - 1].text.count <= 120 {
                    let text = all[index - 1].text.trimming(" \t")
                    let labelVerdict = Markers.verdict(ofLabel: text)
                    if labelVerdict != .neutral || text.hasSuffix(":") {
                        if verdict == .neutral { verdict = labelVerdict }
                        label = index - 1
                        labels.insert(index - 1)
                    }
                }
                if verdict == .neutral, index == range.lowerBound { verdict = headingVerdict }
                codes.append(Code(block: index, language: language, verdict: verdict, label: label))
            case .paragraph:
                // Tables and trees need the source lines; the inline text says whether to look.
                let mayBeTable = block.text.has("|")
                let mayBeTree = block.text.hasAny(of: ["├", "└"])
                let lines = mayBeTable || mayBeTree ? doc.source.lines(block.line, block.endLine) : []
                let found = mayBeTable ? TableReader.tables(in: lines, firstLine: block.line) : []
                tables += found
                if found.isEmpty, mayBeTree, TreeReader.isDecisionTree(lines) {
                    trees.append((index, block.line...block.endLine, TreeReader.nodes(of: lines, firstLine: block.line)))
                } else if found.isEmpty, block.depth == 0, let mark = Scope.mark(block.text) {
                    marked.append(Marked(block: index, verdict: mark, text: block.text))
                }
            case .list:
                if !inTaskList.contains(index), doc.items(of: index).contains(where: { TaskItem(doc.itemText($0)) != nil }) {
                    taskLists.append(index)
                    inTaskList.insert(index)
                }
            case .item:
                let text = doc.itemText(index)
                if let mark = Scope.mark(text), TaskItem(text) == nil {
                    marked.append(Marked(block: index, verdict: mark, text: text))
                }
            default:
                break
            }
        }
        marked.removeAll { labels.contains($0.block) }
    }

    /// ❌ or ✅ at the start of a paragraph or item (after emphasis and spaces).
    static func mark(_ text: String) -> Verdict? {
        let head = String(text.drop { " *_`".contains($0) }.prefix(3))
        if Markers.hasBadSign(head) { return .bad }
        if Markers.hasGoodSign(head) { return .good }
        return nil
    }

    /// Bad code followed, before any other bad code, by good code: an anti-pattern and its fix.
    var pairs: [(bad: Code, good: Code?)] {
        var out: [(Code, Code?)] = []
        for (n, code) in codes.enumerated() where code.verdict == .bad {
            let next = codes[(n + 1)...].first { $0.verdict != .neutral }
            out.append((code, next?.verdict == .good ? next : nil))
        }
        return out
    }
}

/// A `[ ]` or `[x]` task item's state and text.
struct TaskItem {
    var checked: Bool
    var text: String

    init?(_ text: String) {
        // `[ ]`, `[x]` and `[X]` are ASCII: look at the first bytes only.
        let bytes = text.utf8.drop { $0 == 0x20 }
        guard bytes.count >= 3 else { return nil }
        let head = Array(bytes.prefix(3))
        guard head[0] == 0x5B, head[2] == 0x5D else { return nil }
        switch head[1] {
        case 0x20: checked = false
        case 0x78, 0x58: checked = true
        default: return nil
        }
        self.text = String(Substring(bytes.dropFirst(3))).trimming(" \t")
    }
}
