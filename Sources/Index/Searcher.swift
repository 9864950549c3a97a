import Foundation
import SkillParser

/// Ranks entries for a query: BM25 over weighted columns in SQLite, then a re-ranking of the
/// best candidates in Swift (title coverage, Swift symbols, duplicates of one section).
struct Searcher {
    let db: Database
    var ranking = Ranking.current

    /// The knobs of the ranking, measured on ../shared/corpus/relevance.json (docs/search.md).
    struct Ranking: Sendable {
        var title = 12.0
        var breadcrumb = 3.0
        var keywords = 4.0
        var text = 1.0
        var code = 0.6
        /// Multiplies the score by `1 + titleCoverage * share of query words in the title`.
        var titleCoverage = 0.0
        /// Multiplies the score of an entry whose code uses a symbol of the query.
        var symbolBoost = 1.0
        /// Multiplies the score of an entry whose title has exactly the query's words.
        var exactTitle = 1.5
        /// How many BM25 candidates are re-ranked (100 and 200 measure the same; 60 loses).
        var candidates = 100
        /// Multipliers per kind (1 when absent).
        var kinds: [String: Double] = ["example": 0.6, "anti-pattern": 1.2, "decision-tree": 1.2, "table": 1.1]

        /// The ranking of this process, read once.
        static let current = fromEnvironment()

        /// The defaults, with overrides from `SKILL_RANKING` (`title=8,kind.example=0.5,…`): a
        /// tuning aid for Benchmarks/relevance.py, not a user setting.
        static func fromEnvironment() -> Ranking {
            var r = Ranking()
            guard let spec = ProcessInfo.processInfo.environment["SKILL_RANKING"] else { return r }
            for pair in spec.split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2, let v = Double(kv[1]) else { continue }
                switch kv[0] {
                case "title": r.title = v
                case "breadcrumb": r.breadcrumb = v
                case "keywords": r.keywords = v
                case "text": r.text = v
                case "code": r.code = v
                case "titleCoverage": r.titleCoverage = v
                case "symbolBoost": r.symbolBoost = v
                case "exactTitle": r.exactTitle = v
                case "candidates": r.candidates = Int(v)
                default: if kv[0].hasPrefix("kind.") { r.kinds[String(kv[0].dropFirst(5))] = v }
                }
            }
            return r
        }
    }

    /// Expansions of a few abbreviations; each is matched beside the word itself.
    static let synonyms: [String: [String]] = [
        "vm": ["view model", "viewmodel"], "di": ["dependency injection"], "tca": ["composable architecture"],
        "a11y": ["accessibility"], "i18n": ["internationalization", "localization"], "l10n": ["localization"],
        "db": ["database"], "pr": ["pull request"], "prs": ["pull requests"], "ci": ["continuous integration"],
        "llm": ["language model"], "ui": ["user interface"], "auth": ["authentication", "oauth"],
    ]

    /// What the re-ranking reads of an entry.
    private struct Candidate {
        var rowid: Int64
        var id: String
        var kind: String
        var title: String
        var keywords: String
        var score: Double
    }

    /// Where a result is: read for the results only, not for every candidate.
    private struct Location {
        var skill: String
        var crumbs: String
        var path: String
        var line: Int
        var endLine: Int
    }

    func search(_ text: String, kind: EntryKind?, skill: String?, limit: Int) throws -> SearchResults {
        var query = SearchQuery(parsing: text)
        if let kind { query.kinds.append(kind) }
        if let skill { query.skills.append(skill) }
        var results = SearchResults(query: text, results: [])
        guard !query.isEmpty, limit > 0 else { return results }
        results.corrections = try correctTypos(&query)
        try expandPrefixes(&query)

        var filters: [String] = []
        var values: [SQLValue] = []
        if !query.kinds.isEmpty {
            filters.append("e.kind IN (" + query.kinds.map { _ in "?" }.joined(separator: ", ") + ")")
            values += query.kinds.map { .text($0.rawValue) }
        }
        if !query.skills.isEmpty {
            filters.append("e.skill IN (" + query.skills.map { _ in "?" }.joined(separator: ", ") + ")")
            values += query.skills.map { .text($0) }
        }
        if !query.languages.isEmpty {
            filters.append("(" + query.languages.map { _ in "e.langs LIKE ?" }.joined(separator: " OR ") + ")")
            values += query.languages.map { .text("% \($0) %") }
        }
        let filter = filters.isEmpty ? "" : " AND " + filters.joined(separator: " AND ")

        guard !query.terms.isEmpty else {
            // Filters only: entries in index order.
            let rows = try db.query(
                "SELECT e.rowid, e.id, e.kind, e.title, e.keywords, e.skill, e.crumbs, e.path, e.line, e.end_line, substr(e.text, 1, 200) FROM entries e WHERE 1\(filter) ORDER BY e.skill, e.path, e.line LIMIT ?",
                values + [.int(Int64(limit))]
            ) { row -> SearchResult in
                Self.result(Self.candidate(row, score: 0), Self.location(row, at: 5), snippet: Snippets.opening(row.text(10)))
            }
            results.results = rows
            return results
        }

        let all = query.terms.map(Self.expression).joined(separator: " AND ")
        var candidates: [Candidate] = []
        if try isCommon(query.terms) {
            // BM25 scores every match: for words in most entries, rank the entries that have them
            // in a title, breadcrumb or keyword first (the heavy columns would win anyway).
            candidates = try candidatesFor("{title breadcrumb keywords} : (\(all))", filter: filter, values: values)
            if candidates.count < limit { candidates = [] }
        }
        if candidates.isEmpty {
            candidates = try candidatesFor(all, filter: filter, values: values)
        }
        if candidates.isEmpty, query.terms.count > 1 {
            candidates = try candidatesFor(query.terms.map(Self.expression).joined(separator: " OR "), filter: filter, values: values)
            results.partial = !candidates.isEmpty
        }
        let top = rerank(candidates, query: query, limit: limit)
        let rowids = top.map(\.rowid)
        let snippets = try snippetsFor(rowids, expression: query.terms.map(Self.expression).joined(separator: " OR "))
        let locations = try locationsFor(rowids)
        results.results = top.compactMap { c in locations[c.rowid].map { Self.result(c, $0, snippet: snippets[c.rowid] ?? "") } }
        return results
    }

    private func candidatesFor(_ expression: String, filter: String, values: [SQLValue]) throws -> [Candidate] {
        let r = ranking
        let weights = "bm25(\(r.title), \(r.breadcrumb), \(r.keywords), \(r.text), \(r.code))"
        let columns = "e.rowid, e.id, e.kind, e.title, e.keywords"
        let sql: String
        if filter.isEmpty {
            // FTS5's own `ORDER BY rank LIMIT` path ranks without reading the entries' rows.
            sql = """
            WITH best AS (SELECT rowid, rank FROM fts WHERE fts MATCH ? AND rank MATCH '\(weights)' ORDER BY rank LIMIT \(r.candidates))
            SELECT \(columns), best.rank FROM best JOIN entries e ON e.rowid = best.rowid
            """
        } else {
            sql = """
            SELECT \(columns), fts.rank FROM fts JOIN entries e ON e.rowid = fts.rowid
            WHERE fts MATCH ? AND fts.rank MATCH '\(weights)'\(filter)
            ORDER BY fts.rank LIMIT \(r.candidates)
            """
        }
        return try db.query(sql, [.text(expression)] + values) { Self.candidate($0, score: -$0.double(5)) }
    }

    /// A candidate from columns 0-4: rowid, id, kind, title, keywords.
    private static func candidate(_ row: Statement, score: Double) -> Candidate {
        Candidate(rowid: row.int(0), id: row.text(1), kind: row.text(2), title: row.text(3), keywords: row.text(4), score: score)
    }

    /// A location from the columns skill, crumbs, path, line, end_line, the first at `first`.
    private static func location(_ row: Statement, at first: Int32) -> Location {
        Location(
            skill: row.text(first), crumbs: row.text(first + 1), path: row.text(first + 2),
            line: Int(row.int(first + 3)), endLine: Int(row.int(first + 4)))
    }

    private func locationsFor(_ rowids: [Int64]) throws -> [Int64: Location] {
        guard !rowids.isEmpty else { return [:] }
        let sql = """
        SELECT rowid, skill, crumbs, path, line, end_line FROM entries
        WHERE rowid IN (\(rowids.map { _ in "?" }.joined(separator: ",")))
        """
        var locations: [Int64: Location] = [:]
        for (rowid, location) in try db.query(sql, rowids.map { .int($0) }, { ($0.int(0), Self.location($0, at: 1)) }) {
            locations[rowid] = location
        }
        return locations
    }

    private static func result(_ c: Candidate, _ l: Location, snippet: String) -> SearchResult {
        let crumbs = (try? JSONDecoder().decode([String].self, from: Data(l.crumbs.utf8))) ?? []
        return SearchResult(
            id: c.id, kind: EntryKind(rawValue: c.kind), title: c.title, skill: l.skill, breadcrumb: crumbs,
            snippet: snippet, score: (c.score * 1000).rounded() / 1000,
            source: SourceSpan(path: l.path, line: l.line, endLine: l.endLine))
    }

    /// Re-scores the BM25 candidates and drops an entry when its own section already ranks; the
    /// best `limit` are kept.
    private func rerank(_ candidates: [Candidate], query: SearchQuery, limit: Int) -> [Candidate] {
        let words = query.terms.flatMap { term -> [String] in
            switch term {
            case .word(let w), .prefix(let w): return [w]
            case .anyOf(let words): return [words[0]]
            case .phrase(let p): return p.split(separator: " ").map(String.init)
            }
        }
        let stems = words.map(Self.stem)
        let queryWords = Set(words.flatMap(SearchQuery.tokens))
        var scored = candidates.map { c -> Candidate in
            var c = c
            c.score *= ranking.kinds[c.kind] ?? 1
            if !stems.isEmpty {
                let titleTokens = SearchQuery.tokens(c.title)
                let titleWords = titleTokens.filter { !SearchQuery.stopWords.contains($0) }
                // The same words as the query (sets compared without building one per candidate).
                if titleWords.allSatisfy(queryWords.contains), queryWords.allSatisfy(titleWords.contains) { c.score *= ranking.exactTitle }
                if ranking.titleCoverage != 0 {
                    let covered = stems.filter { s in titleTokens.contains { $0.hasPrefix(s) } }.count
                    c.score *= 1 + ranking.titleCoverage * Double(covered) / Double(stems.count)
                }
            }
            if !query.symbols.isEmpty {
                let keywords = c.keywords.split(separator: " ")
                if query.symbols.contains(where: { s in keywords.contains { $0 == s || $0.hasPrefix(s + "(") } }) {
                    c.score *= 1 + ranking.symbolBoost
                }
            }
            return c
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
        // A section and the entries inside it without a heading (`…#slug~example-1`) are one place:
        // keep the better-ranked one.
        var seen = Set<Substring>()
        var top: [Candidate] = []
        for c in scored where seen.insert(Self.place(c)).inserted {
            top.append(c)
            if top.count == limit { break }
        }
        return top
    }

    /// The section an entry stands for: its id without a `~kind-n` suffix.
    private static func place(_ c: Candidate) -> Substring {
        let utf8 = c.id.utf8
        if let tilde = utf8.lastIndex(of: UInt8(ascii: "~")), utf8[utf8.index(after: tilde)...].contains(UInt8(ascii: "-")) {
            return c.id[..<tilde]
        }
        return c.id[...]
    }

    /// A crude stem for comparing query words with title words: the word without common endings.
    static func stem(_ word: String) -> String {
        let count = word.count
        for suffix in ["ations", "ation", "ings", "ing", "ies", "ers", "ed", "es", "er", "s"] where count > suffix.count + 3 && word.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count))
        }
        return word
    }

    private func snippetsFor(_ rowids: [Int64], expression: String) throws -> [Int64: String] {
        guard !rowids.isEmpty else { return [:] }
        // Bound rowids: one prepared statement per count of results, not one per search.
        let sql = """
        SELECT rowid, snippet(fts, 3, '\(SearchResults.mark)', '\(SearchResults.mark)', '…', 16),
            snippet(fts, 4, '\(SearchResults.mark)', '\(SearchResults.mark)', '…', 16), text
        FROM fts WHERE fts MATCH ? AND rowid IN (\(rowids.map { _ in "?" }.joined(separator: ",")))
        """
        var snippets: [Int64: String] = [:]
        for (rowid, text, code, opening) in try db.query(sql, [.text(expression)] + rowids.map { .int($0) }, { ($0.int(0), $0.text(1), $0.text(2), $0.text(3)) }) {
            snippets[rowid] = Snippets.make(text: text, code: code, opening: opening)
        }
        return snippets
    }

    /// One line of text: runs of whitespace become one space.
    static func flatten(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A term as a quoted FTS5 expression: the user's text never reaches MATCH unquoted.
    static func expression(_ term: SearchQuery.Term) -> String {
        func quote(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        switch term {
        case .word(let w):
            let alternatives = synonyms[w] ?? []
            if alternatives.isEmpty { return quote(w) }
            return "(" + ([w] + alternatives).map(quote).joined(separator: " OR ") + ")"
        case .phrase(let p):
            return quote(p)
        case .prefix(let p):
            return quote(p) + "*"
        case .anyOf(let words):
            return "(" + quote(words[0]) + "* OR " + words.dropFirst().map(quote).joined(separator: " OR ") + ")"
        }
    }

    /// Above this many entries holding every word of a query, ranking is narrowed to the heavy columns.
    static let commonMatches: Int64 = 20_000

    /// Whether every word of the query is in more than ``commonMatches`` entries.
    private func isCommon(_ terms: [SearchQuery.Term]) throws -> Bool {
        for term in terms {
            guard case .word(let w) = term,
                  let docs = try db.scalar("SELECT doc FROM words_vocab WHERE term = ?", [.text(w)]),
                  docs > Self.commonMatches else { return false }
        }
        return !terms.isEmpty
    }

    // MARK: Prefixes

    /// Porter-stemmed tokens do not keep their endings (`pagination` is indexed as `pagin`), so a
    /// prefix is expanded to the unstemmed indexed words it starts (the 32 most common).
    private func expandPrefixes(_ query: inout SearchQuery) throws {
        query.terms = try query.terms.map { term in
            guard case .prefix(let p) = term, let last = p.unicodeScalars.last,
                  let next = UnicodeScalar(last.value + 1) else { return term }
            let upper = String(p.unicodeScalars.dropLast()) + String(Character(next))
            let words = try db.query(
                "SELECT term FROM words_vocab WHERE term >= ? AND term < ? ORDER BY doc DESC LIMIT 32",
                [.text(p), .text(upper)]) { $0.text(0) }
            return words.isEmpty ? term : .anyOf([p] + words)
        }
    }

    // MARK: Typos

    /// ``EditDistance`` of two words, over bytes when both are ASCII (the same, and faster).
    static func distance(_ a: String, _ b: String, limit: Int) -> Int {
        if a.utf8.allSatisfy({ $0 < 0x80 }), b.utf8.allSatisfy({ $0 < 0x80 }) {
            return EditDistance.between(Array(a.utf8), Array(b.utf8), limit: limit)
        }
        return EditDistance.between(Array(a), Array(b), limit: limit)
    }

    /// Replaces each word the index has never seen by the nearest indexed word (edit distance 1
    /// for words of 5 to 7 letters, 2 from 8), the most common one on a tie. Returns the changes.
    private func correctTypos(_ query: inout SearchQuery) throws -> [String: String] {
        var corrections: [String: String] = [:]
        var kept: [SearchQuery.Term] = []
        for term in query.terms {
            guard case .word(let word) = term, Self.synonyms[word] == nil, word.allSatisfy(\.isLetter) else {
                kept.append(term)
                continue
            }
            if try db.scalar("SELECT doc FROM words_vocab WHERE term = ?", [.text(word)]) != nil {
                kept.append(term)
                continue
            }
            let allowed = word.count >= 8 ? 2 : word.count >= 5 ? 1 : 0
            var best: (term: String, distance: Int, docs: Int64)?
            if allowed > 0, let first = word.first {
                let lower = String(first)
                let upper = String(UnicodeScalar(first.unicodeScalars.first!.value + 1).map(Character.init) ?? first)
                let rows = try db.query(
                    "SELECT term, doc FROM words_vocab WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?",
                    [.text(lower), .text(upper), .int(Int64(word.count - allowed)), .int(Int64(word.count + allowed))]
                ) { ($0.text(0), $0.int(1)) }
                let stem = Self.stem(word)
                for (candidate, docs) in rows {
                    let d = min(
                        Self.distance(word, candidate, limit: allowed),
                        Self.distance(stem, Self.stem(candidate), limit: allowed))
                    guard d <= allowed else { continue }
                    if best == nil || d < best!.distance || (d == best!.distance && docs > best!.docs) {
                        best = (candidate, d, docs)
                    }
                }
            }
            if let best {
                corrections[word] = best.term
                kept.append(.word(best.term))
            } else if query.terms.count == 1 {
                kept.append(term)
            }
        }
        query.terms = kept
        return corrections
    }
}
