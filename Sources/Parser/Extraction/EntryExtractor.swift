/// Turns a document's sections into entries: one entry per heading, of its most specific kind,
/// plus an entry for each structure found inside a section without a heading of its own
/// (`~anti-pattern-n`, `~example-n`, …). See DESIGN.md section 2.
struct EntryExtractor {
    let doc: DocumentContext
    let sections: [Section]
    private let headings: [HeadingWords]
    private(set) var entries: [Entry] = []

    init(doc: DocumentContext, preamble: Range<Int>, sections: [Section]) {
        self.doc = doc
        self.sections = sections
        headings = sections.map { HeadingWords($0.title) }
        if !preamble.isEmpty,
            !doc.text(of: preamble).isEmpty
                || preamble.contains(where: { if case .code = doc.blocks[$0].kind { return true } else { return false } })
        {
            let lines = doc.blocks[preamble.lowerBound].line...doc.blocks[preamble.upperBound - 1].endLine
            let title = doc.key == "SKILL" ? doc.skill : doc.key
            extract(
                scopeID: "\(doc.skill)/\(doc.key)", title: title, breadcrumb: [], lines: lines, ownEnd: lines.upperBound, blocks: preamble,
                kind: nil, section: nil)
        }
        for index in sections.indices {
            let section = sections[index]
            let scope = Scope(blocks: section.ownBlocks, in: doc, headingVerdict: headings[index].verdict)
            extract(
                scopeID: "\(doc.skill)/\(doc.key)#\(section.slugPath.joined(separator: "/"))",
                title: section.title, breadcrumb: section.breadcrumb,
                lines: section.line...section.endLine, ownEnd: section.ownEndLine,
                blocks: section.ownBlocks, kind: headingKind(index, scope), section: index, scope: scope,
                role: role(index))
        }
        if AboutDocuments.contains(doc.key) {
            entries = entries.map {
                var entry = $0
                entry.role = .about
                return entry
            }
        }
    }

    /// The kind a heading gives its entry: by its words, in order of specificity, when the
    /// section holds what that kind needs.
    private func headingKind(_ index: Int, _ scope: Scope) -> EntryKind {
        let words = headings[index]
        if words.isAntiPattern { return .antiPattern }
        if words.isChecklist || isInChecklist(index), hasListItems(in: index) { return .checklist }
        if words.isDecision, !scope.trees.isEmpty || hasQuestionList(scope) { return .decisionTree }
        if words.isPattern { return .pattern }
        if words.isTable, !scope.tables.isEmpty { return .table }
        if !scope.taskLists.isEmpty, scope.taskLists.count == 1, scope.codes.isEmpty, scope.tables.isEmpty { return .checklist }
        return .section
    }

    /// Routing when the heading says so, when the section is an index of the skill's files, or
    /// when it begins by describing the skill.
    private func role(_ index: Int) -> EntryRole {
        let words = headings[index]
        let blocks = sections[index].ownBlocks
        let byHeading = doc.isSkillFile ? words.isSkillFileRouting : words.isRouting
        return byHeading || Routing.isLinkIndex(blocks, in: doc) || Routing.describesTheSkill(blocks, in: doc) ? .routing : .content
    }

    /// A list that asks or decides (`?`, `→`) can stand for a tree under a decision heading.
    private func hasQuestionList(_ scope: Scope) -> Bool {
        scope.blocks.contains { index in
            doc.blocks[index].kind == .item && doc.itemText(index).contains { $0 == "?" || $0 == "→" }
        }
    }

    /// Whether a heading above the section names a checklist (its groups are checklists too).
    private func isInChecklist(_ index: Int) -> Bool {
        var current = sections[index].parent
        while let i = current {
            if headings[i].isChecklist { return true }
            current = sections[i].parent
        }
        return false
    }

    /// Whether the section or its sub-sections hold list items.
    private func hasListItems(in index: Int) -> Bool {
        subsections(of: index).contains { s in sections[s].ownBlocks.contains { doc.blocks[$0].kind == .item } }
    }

    /// The section and all sections below it, in order.
    private func subsections(of index: Int) -> [Int] {
        var out = [index]
        var i = index + 1
        while i < sections.count, sections[i].level > sections[index].level {
            out.append(i)
            i += 1
        }
        return out
    }

    private mutating func extract(
        scopeID: String, title: String, breadcrumb: [String], lines: ClosedRange<Int>, ownEnd: Int,
        blocks: Range<Int>, kind: EntryKind?, section: Int?, scope given: Scope? = nil, role: EntryRole = .content
    ) {
        let scope = given ?? Scope(blocks: blocks, in: doc, headingVerdict: .neutral)
        let kind = kind ?? .section
        var verdicts: [Int: Verdict] = [:]
        for code in scope.codes { verdicts[code.block] = code.verdict }
        var counters: [EntryKind: Int] = [:]
        func subID(_ kind: EntryKind) -> String {
            counters[kind, default: 0] += 1
            return "\(scopeID)~\(kind.rawValue)-\(counters[kind]!)"
        }
        // Examples first, so that anti-patterns can name their fix.
        var exampleIDs: [Int: String] = [:]
        var subEntries: [Entry] = []
        for code in scope.codes {
            let id = subID(.example)
            exampleIDs[code.block] = id
            let block = doc.blocks[code.block]
            let start = code.label.map { doc.blocks[$0].line } ?? block.line
            let label = code.label.map { doc.blocks[$0].text.trimming(" :\t") } ?? ""
            subEntries.append(
                makeEntry(
                    id: id, kind: .example, title: label.isEmpty ? title : label, breadcrumb: breadcrumb,
                    lines: start...block.endLine, text: label, blocks: code.block..<(code.block + 1), verdicts: verdicts,
                    details: .example(Example(language: code.language, verdict: code.verdict))))
        }

        var absorbedPair = kind != .antiPattern
        var absorbedTree = kind != .decisionTree
        var absorbedTable = kind != .table
        var headingDetails = EntryDetails.none

        for pair in scope.pairs {
            var why = whyText(between: pair.bad.block, and: pair.good?.block ?? pair.bad.block + 1, scope: scope)
            if why.isEmpty, !absorbedPair { why = prose(of: blocks, scope: scope) }
            let details = EntryDetails.antiPattern(AntiPattern(why: why, fix: pair.good.map { exampleIDs[$0.block]! }))
            if !absorbedPair {
                headingDetails = details
                absorbedPair = true
                continue
            }
            let start = pair.bad.label ?? pair.bad.block
            let end = pair.good?.block ?? pair.bad.block
            let label = pair.bad.label.map { doc.blocks[$0].text.trimming(" :\t") } ?? ""
            subEntries.append(
                makeEntry(
                    id: subID(.antiPattern), kind: .antiPattern, title: label.isEmpty ? title : label, breadcrumb: breadcrumb,
                    lines: doc.blocks[start].line...doc.blocks[end].endLine,
                    text: [label, why].filter { !$0.isEmpty }.joined(separator: "\n"),
                    blocks: start..<(end + 1), verdicts: verdicts, details: details))
        }
        for mark in scope.marked {
            // Under a heading of the same verdict, marked items are that entry's own content.
            if kind == .antiPattern || kind == .checklist || (kind == .pattern && mark.verdict == .good) { continue }
            let block = doc.blocks[mark.block]
            let entryKind: EntryKind = mark.verdict == .bad ? .antiPattern : .pattern
            subEntries.append(
                makeEntry(
                    id: subID(entryKind), kind: entryKind, title: Self.shortTitle(mark.text), breadcrumb: breadcrumb,
                    lines: block.line...block.endLine, text: mark.text, blocks: mark.block..<(mark.block + 1), verdicts: verdicts,
                    details: entryKind == .antiPattern ? .antiPattern(AntiPattern(why: mark.text, fix: nil)) : .none))
        }
        for tree in scope.trees {
            let details = EntryDetails.decisionTree(DecisionTree(nodes: tree.nodes))
            if !absorbedTree {
                headingDetails = details
                absorbedTree = true
                continue
            }
            subEntries.append(
                makeEntry(
                    id: subID(.decisionTree), kind: .decisionTree, title: title, breadcrumb: breadcrumb, lines: tree.lines,
                    text: Self.flatten(tree.nodes), blocks: tree.block..<(tree.block + 1), verdicts: verdicts, details: details))
        }
        if !absorbedTree, let list = blocks.first(where: { if case .list = doc.blocks[$0].kind { return true } else { return false } }) {
            headingDetails = .decisionTree(DecisionTree(nodes: listTree(list)))
        }
        for found in scope.tables {
            let details = EntryDetails.table(found.table)
            if !absorbedTable {
                headingDetails = details
                absorbedTable = true
                continue
            }
            let range = doc.blocks(in: blocks, lines: found.line...found.endLine)
            subEntries.append(
                makeEntry(
                    id: subID(.table), kind: .table, title: title, breadcrumb: breadcrumb, lines: found.line...found.endLine,
                    text: ([found.table.header] + found.table.rows).map { $0.joined(separator: " ") }.joined(separator: "\n"),
                    blocks: range, verdicts: verdicts, details: details))
        }
        if kind == .checklist, let section {
            headingDetails = .checklist(Checklist(items: checklistItems(section)))
        } else {
            for list in scope.taskLists {
                let items = checklistItems(list: list, group: nil)
                let block = doc.blocks[list]
                subEntries.append(
                    makeEntry(
                        id: subID(.checklist), kind: .checklist, title: title, breadcrumb: breadcrumb, lines: block.line...block.endLine,
                        text: items.map(\.text).joined(separator: "\n"), blocks: list..<(list + 1), verdicts: verdicts,
                        details: .checklist(Checklist(items: items))))
            }
        }
        if kind == .antiPattern, case .none = headingDetails {
            headingDetails = .antiPattern(AntiPattern(why: prose(of: blocks, scope: scope), fix: nil))
        }

        // A checklist's groups are its sub-sections, so its slice runs to the end of the section.
        let own = kind == .checklist ? lines.upperBound : ownEnd
        let headingText = doc.text(of: blocks)
        var heading = makeEntry(
            id: scopeID, kind: headingKind(for: kind, details: headingDetails), title: title, breadcrumb: breadcrumb,
            lines: lines, markdownEnd: own, text: headingText, blocks: blocks, verdicts: verdicts, details: headingDetails)
        heading.role = role
        entries.append(heading)
        // What stands inside a routing section is routing too (a table of the skill's files).
        entries += subEntries.map {
            var entry = $0
            entry.role = role
            return entry
        }
    }

    /// A heading kind whose structure was not found falls back to a plain section.
    private func headingKind(for kind: EntryKind, details: EntryDetails) -> EntryKind {
        switch (kind, details) {
        case (.decisionTree, .decisionTree), (.table, .table), (.checklist, .checklist): return kind
        case (.decisionTree, _), (.table, _), (.checklist, _): return .section
        default: return kind
        }
    }

    private func makeEntry(
        id: String, kind: EntryKind, title: String, breadcrumb: [String], lines: ClosedRange<Int>, markdownEnd: Int? = nil,
        text: String, blocks: Range<Int>, verdicts: [Int: Verdict], details: EntryDetails
    ) -> Entry {
        Entry(
            id: id, kind: kind, title: title, skill: doc.skill, breadcrumb: breadcrumb,
            source: SourceSpan(path: doc.path, line: lines.lowerBound, endLine: lines.upperBound),
            markdown: doc.source.slice(lines.lowerBound, markdownEnd ?? lines.upperBound),
            text: text, code: doc.code(of: blocks, verdicts: verdicts), keywords: doc.keywords(of: blocks),
            details: details)
    }

    /// The paragraphs of `range` that do not label code.
    private func prose(of range: Range<Int>, scope: Scope) -> String {
        let labels = Set(scope.codes.compactMap(\.label))
        return range.filter { !labels.contains($0) }.compactMap { index -> String? in
            if case .paragraph = doc.blocks[index].kind { return doc.blocks[index].text }
            return nil
        }.joined(separator: "\n")
    }

    /// The prose between a bad example and its fix, without the fix's label.
    private func whyText(between bad: Int, and good: Int, scope: Scope) -> String {
        let label = scope.codes.first { $0.block == good }?.label
        let range = (bad + 1)..<max(bad + 1, good)
        return range.filter { $0 != label }.compactMap { index -> String? in
            if case .paragraph = doc.blocks[index].kind { return doc.blocks[index].text }
            return nil
        }.joined(separator: "\n")
    }

    /// Items of a checklist heading and of its sub-sections, each grouped by its sub-heading.
    private func checklistItems(_ section: Int) -> [ChecklistItem] {
        var items: [ChecklistItem] = []
        for s in subsections(of: section) {
            let group = s == section ? nil : sections[s].title
            for index in sections[s].ownBlocks where doc.blocks[index].kind == .item {
                items.append(item(index, group: group))
            }
        }
        return items
    }

    private func checklistItems(list: Int, group: String?) -> [ChecklistItem] {
        let block = doc.blocks[list]
        return (list..<doc.blocks.count)
            .prefix { doc.blocks[$0].line <= block.endLine }
            .filter { doc.blocks[$0].kind == .item }
            .map { item($0, group: group) }
    }

    private func item(_ index: Int, group: String?) -> ChecklistItem {
        let text = doc.itemText(index)
        let task = TaskItem(text)
        return ChecklistItem(text: task?.text ?? text, group: group, checked: task?.checked, line: doc.blocks[index].line)
    }

    /// A nested list read as a tree: each item a node under the item that holds it.
    private func listTree(_ list: Int) -> [TreeNode] {
        let end = doc.blocks[list].endLine
        let items = (list..<doc.blocks.count).prefix { doc.blocks[$0].line <= end }.filter { doc.blocks[$0].kind == .item }
        var position: [Int: Int] = [:]
        var parents: [Int?] = []
        var depths: [Int] = []
        for item in items {
            var p = doc.blocks[item].parent
            while let current = p, position[current] == nil { p = doc.blocks[current].parent }
            var parent = p.flatMap { position[$0] }
            // Deeper nesting than a tree can sensibly show hangs under the deepest allowed node.
            while let current = parent, depths[current] >= TreeReader.maxDepth - 1 { parent = parents[current] }
            position[item] = parents.count
            parents.append(parent)
            depths.append(parent.map { depths[$0] + 1 } ?? 0)
        }
        return TreeNode.forest(items.map { TreeNode(label: doc.itemText($0), line: doc.blocks[$0].line) }, parents: parents)
    }

    static func flatten(_ nodes: [TreeNode]) -> String {
        var lines: [String] = []
        var stack = Array(nodes.reversed())
        while let node = stack.popLast() {
            lines.append(node.label)
            stack += node.children.reversed()
        }
        return lines.joined(separator: "\n")
    }

    /// The first sentence or 100 characters of a marked item, without its ❌/✅ and emphasis.
    static func shortTitle(_ text: String) -> String {
        let plain = text.drop { " *_❌✅✔️✓✗✘🚫⛔:".contains($0) }
        let firstLine = plain.prefix { $0 != "\n" }
        if firstLine.count <= 100 { return String(firstLine).trimming(" *_") }
        let cut = firstLine.prefix(100)
        return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "…"
    }
}
