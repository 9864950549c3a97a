/// Skills written in the XML style of prompts mark their parts with tags on lines of their own
/// (`<objective>`, `<quick_start>`, `<success_criteria>`) instead of markdown headings, so the
/// whole body would be one section. In a body without headings, each such pair of tags is read
/// as a section: the opening line as a heading named for the tag (`<quick_start>` → "Quick
/// start"; `##`, one level deeper for each enclosing pair), the closing line as a blank line.
/// Every line keeps its number, and the source as written is what an entry's markdown shows.
enum PromptTags {
    /// HTML elements that markdown uses as HTML (`<details>`, `<div align="center">`): never a section.
    static let htmlElements: Set<String> = [
        "a", "abbr", "address", "article", "aside", "audio", "b", "blockquote", "body", "br", "button", "caption",
        "center", "code", "col", "colgroup", "dd", "del", "details", "dialog", "div", "dl", "dt", "em", "fieldset",
        "figcaption", "figure", "font", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr",
        "html", "i", "iframe", "img", "input", "ins", "kbd", "label", "li", "link", "main", "mark", "meta", "nav",
        "ol", "option", "p", "picture", "pre", "s", "script", "section", "select", "small", "source", "span",
        "strong", "style", "sub", "summary", "sup", "svg", "table", "tbody", "td", "textarea", "tfoot", "th",
        "thead", "tr", "u", "ul", "video",
    ]

    /// The deepest heading a pair becomes.
    static let deepestLevel = 6
    /// The most tags kept open at once.
    static let maxOpen = 64

    /// The body (from file line `bodyStartLine` of `source`) with its tag pairs turned into
    /// headings, and the file lines of the closing tags (a section ends before its own); nil when
    /// the body has a heading of its own or no pair. `blocks` are cmark's blocks of the body.
    static func headings(in source: SourceText, bodyStartLine: Int, blocks: [Block]) -> (text: String, closingLines: Set<Int>)? {
        guard !blocks.contains(where: \.isHeading), bodyStartLine <= source.lines.count else { return nil }
        // A tag counts on a top-level line of text (an HTML block's or a paragraph's: cmark reads
        // `<quick_start>` as text, `_` being no HTML name character), never in a list, a quote or code.
        var topLevel = Set<Int>()
        var inCode = Set<Int>()
        for block in blocks {
            switch block.kind {
            case .html where block.depth == 0, .paragraph where block.depth == 0: topLevel.formUnion(block.line...block.endLine)
            case .code: inCode.formUnion(block.line...block.endLine)
            default: break
            }
        }
        let body = bodyStartLine...source.lines.count
        // Tags opened and not yet closed; a closing tag closes its own, and the unclosed ones
        // opened after it are dropped. Bounded, so that a file of unclosed tags costs linear time.
        var open: [(name: Substring, line: Int)] = []
        var pairs: [(open: Int, close: Int, name: Substring)] = []
        for number in body where !inCode.contains(number) {
            guard let tag = tag(source.line(number)) else { continue }
            if !tag.closing {
                guard topLevel.contains(number) else { continue }
                if open.count == maxOpen { open.removeFirst() }
                open.append((tag.name, number))
            } else if let match = open.lastIndex(where: { $0.name == tag.name }) {
                pairs.append((open[match].line, number, open[match].name))
                open.removeSubrange(match...)
            }
        }
        guard !pairs.isEmpty else { return nil }
        // Pairs nest or follow each other: a pair's depth is the number of pairs around it.
        var headingAt: [Int: String] = [:]
        var closingLines = Set<Int>()
        var enclosing: [Int] = []  // the closing lines of the pairs around the current one
        for pair in pairs.sorted(by: { $0.open < $1.open }) {
            while let close = enclosing.last, close < pair.open { enclosing.removeLast() }
            headingAt[pair.open] = String(repeating: "#", count: min(2 + enclosing.count, deepestLevel)) + " " + title(pair.name)
            closingLines.insert(pair.close)
            enclosing.append(pair.close)
        }
        let text = body.map { number in
            headingAt[number] ?? (closingLines.contains(number) ? "" : String(source.line(number)))
        }.joined(separator: "\n")
        return (text, closingLines)
    }

    /// A line that is one tag and nothing else (`<name>`, `<name attr="x">`, `</name>`), not an
    /// HTML element's.
    static func tag(_ line: Substring) -> (name: Substring, closing: Bool)? {
        var text = line[...]
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        guard text.hasPrefix("<"), text.hasSuffix(">"), !text.hasSuffix("/>"), text.count > 2 else { return nil }
        var inner = text.dropFirst().dropLast()
        let closing = inner.hasPrefix("/")
        if closing { inner = inner.dropFirst() }
        let name = inner.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        guard let first = name.first, first.isLetter else { return nil }
        let rest = inner.dropFirst(name.count)
        guard rest.isEmpty || (!closing && (rest.first == " " || rest.first == "\t")) else { return nil }
        guard !htmlElements.contains(name.lowercased()) else { return nil }
        return (name, closing)
    }

    /// "quick_start" → "Quick start", "follow-up" → "Follow up".
    static func title(_ name: Substring) -> String {
        let words = name.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
