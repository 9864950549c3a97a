/// A markdown block copied out of cmark's tree into a Swift value. Blocks are kept in one flat
/// array in document order, each pointing at its parent, so that no pass over them recurses:
/// 10,000 nested list levels are just 10,000 array elements.
struct Block: Sendable {
    enum Kind: Equatable, Sendable {
        case heading(level: Int)
        case paragraph
        /// `info` is the whole info string of a fence (`bash title="x"`); empty for an indented block.
        case code(info: String)
        case list(ordered: Bool)
        case item
        case quote
        case html
        case rule
    }

    var kind: Kind
    /// 1-based file lines, frontmatter counted.
    var line: Int
    var endLine: Int
    /// How many container blocks (lists, items, quotes) enclose it.
    var depth: Int
    /// Index of the enclosing container in the flat array.
    var parent: Int?
    /// Plain inline text for headings and paragraphs; the literal for code and HTML.
    var text: String = ""
    /// The contents of inline code spans.
    var inlineCode: [String] = []
    /// Link and image destinations.
    var links: [String] = []

    var isHeading: Bool {
        if case .heading = kind { return true }
        return false
    }

    var headingLevel: Int? {
        if case .heading(let level) = kind { return level }
        return nil
    }
}
