/// The snippet of a search result: the matched words in the context of the entry's text, else the
/// entry's first lines (a checklist's first items), never its title or breadcrumb again.
enum Snippets {
    /// At most this many characters of opening lines.
    static let length = 160

    /// - Parameters:
    ///   - text: FTS5's excerpt of the entry's text column, matched words between ``SearchResults/mark``.
    ///   - code: the same of its code column.
    ///   - opening: the entry's text, for the opening lines when the text has no match.
    static func make(text: String, code: String, opening: String) -> String {
        if text.contains(SearchResults.mark) { return Searcher.flatten(text) }
        let lines = Self.opening(opening)
        if !lines.isEmpty { return lines }
        return code.contains(SearchResults.mark) ? Searcher.flatten(code) : ""
    }

    /// The first non-empty lines of `text`, each on one line, joined by ` · ` up to ``length``
    /// characters (`…` when cut).
    static func opening(_ text: String) -> String {
        var out = ""
        for line in text.split(whereSeparator: \.isNewline) {
            let flat = Searcher.flatten(String(line))
            if flat.isEmpty { continue }
            let next = out.isEmpty ? flat : out + " · " + flat
            if next.count > length {
                return out.isEmpty ? String(flat.prefix(length - 1)) + "…" : out + " …"
            }
            out = next
        }
        return out
    }
}
