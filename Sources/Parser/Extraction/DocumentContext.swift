/// One markdown document being turned into entries: its text, blocks and where it belongs.
struct DocumentContext {
    let skill: String
    /// The document's path inside its skill without `.md` (`SKILL`, `references/state`): the id's middle.
    let key: String
    /// Relative to the root the skill was found under.
    let path: String
    let source: SourceText
    let blocks: [Block]
    private var itemParagraph: [Int: Int] = [:]
    private var listItems: [Int: [Int]] = [:]
    /// Each block's keywords, scanned once: a block's code counts for its section and again
    /// for the entries inside it.
    private let blockKeywords: [[String]]

    init(skill: String, key: String, path: String, source: SourceText, blocks: [Block]) {
        self.skill = skill
        self.key = key
        self.path = path
        self.source = source
        self.blocks = blocks
        blockKeywords = blocks.map { block in
            switch block.kind {
            case .code: return KeywordScanner.scan([block.text])
            case .paragraph, .heading: return block.inlineCode.isEmpty ? [] : KeywordScanner.scan(block.inlineCode)
            default: return []
            }
        }
        for (index, block) in blocks.enumerated() {
            guard let parent = block.parent else { continue }
            switch (blocks[parent].kind, block.kind) {
            case (.item, .paragraph) where itemParagraph[parent] == nil:
                itemParagraph[parent] = index
            case (.list, .item):
                listItems[parent, default: []].append(index)
            default:
                break
            }
        }
    }

    /// The text of an item's first paragraph.
    func itemText(_ item: Int) -> String {
        itemParagraph[item].map { blocks[$0].text } ?? ""
    }

    /// The link destinations of an item's first paragraph.
    func itemLinks(_ item: Int) -> [String] {
        itemParagraph[item].map { blocks[$0].links } ?? []
    }

    /// Whether this is the skill's SKILL.md (or skill.md).
    var isSkillFile: Bool { key.lowercased() == "skill" }

    /// The direct items of a list.
    func items(of list: Int) -> [Int] {
        listItems[list] ?? []
    }

    /// The lines of a code block's literal.
    func codeLines(_ index: Int) -> [Substring] {
        var lines = blocks[index].text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Plain text of the headings, paragraphs and items among `range`.
    func text(of range: Range<Int>) -> String {
        range.compactMap { index -> String? in
            switch blocks[index].kind {
            case .paragraph, .heading: return blocks[index].text
            default: return nil
            }
        }
        .filter { !$0.isEmpty }
        .joined(separator: "\n")
    }

    /// The code blocks among `range` that have a language.
    func code(of range: Range<Int>, verdicts: [Int: Verdict]) -> [CodeBlock] {
        range.compactMap { index -> CodeBlock? in
            guard case .code(let info) = blocks[index].kind else { return nil }
            let language = info.split(separator: " ").first.map { $0.lowercased() } ?? ""
            return CodeBlock(language: language, code: blocks[index].text, verdict: verdicts[index] ?? .neutral)
        }
    }

    /// Keywords from the code blocks and inline code spans among `range`.
    func keywords(of range: Range<Int>) -> [String] {
        KeywordScanner.merge(range.map { blockKeywords[$0] })
    }

    /// The blocks of `range` that lie within file lines `lines`.
    func blocks(in range: Range<Int>, lines: ClosedRange<Int>) -> Range<Int> {
        let inside = range.filter { lines.contains(blocks[$0].line) }
        guard let first = inside.first, let last = inside.last else { return range.lowerBound..<range.lowerBound }
        return first..<(last + 1)
    }
}
