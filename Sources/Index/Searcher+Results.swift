import Foundation
import SkillParser

/// Result assembly, the last stage: where each result is, its snippet and its other places.
extension Searcher {
    /// The results of the ranked candidates `top`: each with its place, its snippet of the words
    /// of `expression` (a MATCH expression; its opening lines when it holds none of them) and the
    /// other places of its copies.
    func assemble(_ top: [Candidate], expression: String) throws -> [SearchResult] {
        let rowids = top.map(\.rowid)
        let snippets = try snippetsFor(rowids, expression: expression)
        let locations = try locationsFor(rowids + top.flatMap { $0.copies.map(\.rowid) })
        return try top.compactMap { c in
            guard let location = locations[c.rowid] else { return nil }
            var result = Self.result(c, location, snippet: snippets[c.rowid] ?? "")
            let others =
                c.copies.compactMap { copy in locations[copy.rowid].map { Self.other(copy.id, $0) } }
                + (try shadowedCopies(of: location)).map { Self.other(c.id, $0) }
            result.alsoAt = others.isEmpty ? nil : others
            return result
        }
    }

    /// A location from the columns skill, crumbs, path, line, end_line, file, breadcrumb, the
    /// first at `first`.
    static func location(_ row: Statement, at first: Int32) -> Location {
        Location(
            skill: row.text(first), crumbs: row.text(first + 1), breadcrumb: row.text(first + 6), path: row.text(first + 2),
            file: row.text(first + 5), line: Int(row.int(first + 3)), endLine: Int(row.int(first + 4)))
    }

    /// The same document, byte for byte, in skills shadowed by a skill of an earlier root: they
    /// are watched, not indexed, so their documents' hashes find them.
    func shadowedCopies(of location: Location) throws -> [Location] {
        try db.query(
            """
            SELECT d.file, d.path FROM documents d JOIN skills s ON s.folder = d.folder
            WHERE s.name IS NULL AND d.file != ?1 AND d.hash = (SELECT hash FROM documents WHERE file = ?1)
            ORDER BY d.file
            """, [.text(location.file)]
        ) {
            Location(
                skill: location.skill, crumbs: location.crumbs, breadcrumb: location.breadcrumb, path: $0.text(1), file: $0.text(0),
                line: location.line, endLine: location.endLine)
        }
    }

    static func other(_ id: String, _ l: Location) -> OtherLocation {
        OtherLocation(id: id, skill: l.skill, source: SourceSpan(path: l.path, line: l.line, endLine: l.endLine), absolutePath: l.file)
    }

    func locationsFor(_ rowids: [Int64]) throws -> [Int64: Location] {
        guard !rowids.isEmpty else { return [:] }
        let sql = """
            SELECT e.rowid, e.skill, e.crumbs, d.path, e.line, e.end_line, d.file, e.breadcrumb FROM entries e JOIN documents d ON d.id = e.doc
            WHERE e.rowid IN (\(rowids.map { _ in "?" }.joined(separator: ",")))
            """
        var locations: [Int64: Location] = [:]
        for (rowid, location) in try db.query(sql, rowids.map { .int($0) }, { ($0.int(0), Self.location($0, at: 1)) }) {
            locations[rowid] = location
        }
        return locations
    }

    static func result(_ c: Candidate, _ l: Location, snippet: String) -> SearchResult {
        let crumbs = IndexBuilder.crumbs(stored: l.crumbs, breadcrumb: l.breadcrumb, title: c.title)
        return SearchResult(
            id: c.id, kind: EntryKind(rawValue: c.kind), title: c.title, skill: l.skill, breadcrumb: crumbs,
            snippet: snippet, score: (c.score * 1000).rounded() / 1000,
            source: SourceSpan(path: l.path, line: l.line, endLine: l.endLine))
    }

    func snippetsFor(_ rowids: [Int64], expression: String) throws -> [Int64: String] {
        try Snippets.make(for: rowids, matching: expression, in: db)
    }

    /// One line of text: runs of whitespace become one space.
    static func flatten(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
