import Foundation
import SkillParser

/// Ranks entries for a query: BM25 over weighted columns in SQLite, then a re-ranking of the
/// best candidates in Swift (title coverage, Swift symbols, duplicates of one section).
struct Searcher {
    let db: Database
    var ranking = Ranking.current

    /// The knobs of the ranking, measured on ../shared/corpus/relevance.json (docs/search.md).
    struct Ranking: Sendable {
        /// The title's weight in a question (soft retrieval): 8 there cost questions 0.761 → 0.732.
        var title = 12.0
        /// The title's weight in a keyword query: its words are in the titles of many entries, and
        /// the text tells them apart (docs/search.md: relevance.json 0.853 at 12, 0.889 at 8).
        var keywordTitle = 8.0
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
        /// The exponent of the coverage factor in soft retrieval.
        var coverage = 1.0
        /// Multiplies a soft candidate's score by `1 + pairs * share`, where `share` is the share of
        /// the query's adjacent word pairs it holds as phrases.
        var pairs = 2.0
        /// Queries of at most this many terms are keywords: every term must match (else any).
        /// Longer ones are questions in the asker's words, many of which no answer holds: they
        /// are retrieved softly (a minimum-should-match, as search engines do).
        var shortQuery = 4
        /// The rows an any-word query may score, as a share of the entries, within
        /// ``scoredRows`` (docs/search.md: Bounded work).
        var scoredShare = 0.1
        /// The bounds of the rows an any-word query may score.
        var scoredRows = 1_000...5_000
        /// Multiplies a soft candidate's score by `1 + skillMatch * share`, where `share` is the
        /// share of the query's weight (IDF) that its skill's name and description hold (1.5 won
        /// on the first held-out sets and lost on the later ones: docs/search.md).
        var skillMatch = 0.75
        /// Multiplies the score of a routing entry (``EntryRole/routing``; 0.3: chosen with the
        /// held-out questions).
        var routing = 0.3
        /// Multiplies the score of an entry written about the skill for its maintainers
        /// (``EntryRole/about``: its spec, evaluations, sources). Every judged set measures the
        /// same from 0.1 to 0.3 (docs/search.md); 0.3, as routing.
        var about = 0.3
        /// Whether a word also matches the other words of its ``Thesaurus`` group (1) or not (0).
        var thesaurus = 1.0
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
                case "keywordTitle": r.keywordTitle = v
                case "breadcrumb": r.breadcrumb = v
                case "keywords": r.keywords = v
                case "text": r.text = v
                case "code": r.code = v
                case "titleCoverage": r.titleCoverage = v
                case "symbolBoost": r.symbolBoost = v
                case "exactTitle": r.exactTitle = v
                case "candidates": r.candidates = Int(v)
                case "coverage": r.coverage = v
                case "shortQuery": r.shortQuery = Int(v)
                case "pairs": r.pairs = v
                case "scoredShare": r.scoredShare = v
                case "routing": r.routing = v
                case "about": r.about = v
                case "thesaurus": r.thesaurus = v
                case "skillMatch": r.skillMatch = v
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
        "repo": ["repository"], "repos": ["repositories"], "env": ["environment"], "envs": ["environments"],
        "config": ["configuration"], "cfg": ["configuration"], "creds": ["credentials"], "deps": ["dependencies"],
        "k8s": ["kubernetes"], "tf": ["terraform"], "js": ["javascript"], "ts": ["typescript"], "py": ["python"],
        "perf": ["performance"], "prod": ["production"], "impl": ["implementation"], "args": ["arguments"],
        "params": ["parameters"], "pkg": ["package"], "lib": ["library"], "dir": ["directory"],
        "msg": ["message"], "img": ["image"],
    ]

    /// The other way round: a word or two-word phrase of an expansion also matches its
    /// abbreviation ("pull request" finds a section that says "PR").
    static let abbreviations: [String: [String]] = {
        var reverse: [String: [String]] = [:]
        for (abbreviation, expansions) in synonyms.sorted(by: { $0.key < $1.key }) {
            for expansion in expansions { reverse[expansion, default: []].append(abbreviation) }
        }
        return reverse
    }()

    /// What the re-ranking reads of an entry.
    private struct Candidate {
        var rowid: Int64
        var id: String
        var kind: String
        var title: String
        var keywords: String
        var role: EntryRole
        var hash: String
        var score: Double
        /// Identical entries elsewhere, ranked lower.
        var copies: [Candidate] = []
        /// The share of the query's weight (IDF) the entry matches; 1 in a strict search.
        var coverage = 1.0
    }

    /// Where a result is: read for the results only, not for every candidate.
    private struct Location {
        var skill: String
        /// The `crumbs` column: JSON, or empty when `breadcrumb` and the title give the headings.
        var crumbs: String
        var breadcrumb: String
        var path: String
        var file: String
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
        query.terms = Self.joinAbbreviatedPhrases(query.terms)
        try expandPrefixes(&query)
        try addWordForms(&query)

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
                "SELECT \(Self.candidateColumns), e.skill, e.crumbs, d.path, e.line, e.end_line, d.file, e.breadcrumb, substr(inflate(e.text), 1, 200) FROM entries e JOIN documents d ON d.id = e.doc WHERE 1\(filter) ORDER BY e.skill, d.path, e.line LIMIT ?",
                values + [.int(Int64(limit))]
            ) { row -> SearchResult in
                Self.result(Self.candidate(row, score: 0), Self.location(row, at: 7), snippet: Snippets.opening(row.text(14)))
            }
            results.results = rows
            return results
        }

        let soft = query.terms.count > ranking.shortQuery
        let expressions = query.terms.map { Self.expression($0, inQuestion: soft) }
        var candidates: [Candidate] = []
        if soft {
            // Any word may be missing: BM25 over the words' OR adds candidates, then every
            // candidate is weighed by how much of the query (by IDF) it holds. The rows of each
            // term, read anyway, tell whether an entry holds them all (a question seldom has one).
            let stats = try termStats(expressions, entries: entryCount())
            if Self.shareARow(stats.terms.map(\.rowids)) {
                candidates = try strictCandidates(
                    query.terms, expressions, filter: filter, values: values, limit: limit, title: ranking.title)
            }
            let strict = Set(candidates.map(\.rowid))
            candidates += try anyWordCandidates(stats, filter: filter, values: values, title: ranking.title)
                .filter { !strict.contains($0.rowid) }
            try weighByCoverage(&candidates, stats)
            try weighBySkillMatch(&candidates, stats)
        } else {
            candidates = try strictCandidates(
                query.terms, expressions, filter: filter, values: values, limit: limit, title: ranking.keywordTitle)
            if candidates.isEmpty, expressions.count > 1 {
                candidates = try anyWordCandidates(
                    termStats(expressions, entries: entryCount()), filter: filter, values: values, title: ranking.keywordTitle)
                results.partial = !candidates.isEmpty
            }
        }
        if soft { try weighByAdjacentPairs(&candidates, query.terms) }
        let top = rerank(candidates, query: query, limit: limit)
        let rowids = top.map(\.rowid)
        let snippets = try snippetsFor(rowids, expression: expressions.joined(separator: " OR "))
        let locations = try locationsFor(rowids + top.flatMap { $0.copies.map(\.rowid) })
        results.results = try top.compactMap { c in
            guard let location = locations[c.rowid] else { return nil }
            var result = Self.result(c, location, snippet: snippets[c.rowid] ?? "")
            let others =
                c.copies.compactMap { copy in locations[copy.rowid].map { Self.other(copy.id, $0) } }
                + (try shadowedCopies(of: location)).map { Self.other(c.id, $0) }
            result.alsoAt = others.isEmpty ? nil : others
            return result
        }
        if soft { results.partial = !top.isEmpty && !top.contains { $0.coverage >= 1 } }
        return results
    }

    /// Every word must match. For words in most entries, the entries that have them in a title,
    /// breadcrumb or keyword are ranked first (the heavy columns would win anyway).
    private func strictCandidates(
        _ terms: [SearchQuery.Term], _ expressions: [String], filter: String, values: [SQLValue], limit: Int, title: Double
    ) throws -> [Candidate] {
        let all = expressions.joined(separator: " AND ")
        if try isCommon(terms) {
            let narrowed = try candidatesFor("{title breadcrumb keywords} : (\(all))", filter: filter, values: values, title: title)
            if narrowed.count >= limit { return narrowed }
        }
        return try candidatesFor(all, filter: filter, values: values, title: title)
    }

    /// A query term as soft retrieval weighs it.
    private struct TermStats {
        var expression: String
        /// The entries that hold it, in ascending order.
        var rowids: [Int64]
        /// Its inverse document frequency, in BM25's form.
        var idf: Double
        var matches: Double { Double(rowids.count) }
    }

    private func termStats(_ expressions: [String], entries: Double) throws -> (entries: Double, terms: [TermStats]) {
        let terms = try expressions.map { expression in
            let rowids = try matching(expression)
            let n = Double(rowids.count)
            return TermStats(expression: expression, rowids: rowids, idf: log((entries - n + 0.5) / (n + 0.5) + 1))
        }
        return (entries, terms)
    }

    /// The entries that match `expression`, in ascending order. A whole doclist is read rather
    /// than asking for some rowids: FTS5 answers `rowid IN (…)` with one lookup per rowid, each
    /// evaluating the expression again (100 times slower for 200 candidates).
    private func matching(_ expression: String) throws -> [Int64] {
        try db.query("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid", [.text(expression)]) { $0.int(0) }
    }

    /// The most rows an any-word query scores: ``Ranking/scoredShare`` of the entries, within
    /// ``Ranking/scoredRows``. Scoring (BM25 per row) is most of a query's time; reading which rows hold
    /// a term is cheap.
    func rowBudget(entries: Double) -> Double {
        min(max(ranking.scoredShare * entries, Double(ranking.scoredRows.lowerBound)), Double(ranking.scoredRows.upperBound))
    }

    /// Any of the terms, with bounded work and the scores of the full OR. The rarest terms, as
    /// many as hold at most ``rowBudget(entries:)`` rows together (at least one), choose the
    /// candidates; the common rest only adds to the score of candidates that hold it. Two
    /// statements split the rows of `rare`: `rare NOT common` (scored by the rare terms alone,
    /// as the OR would) and `common AND rare` (by every term they hold); the best of both are
    /// the best of the OR, since no row is in both. One expression,
    /// `(rare NOT common) OR (common AND rare)`, lost hits once a phrase of several words was
    /// among the terms (a quoted one, an abbreviation's "view model"): FTS5 (SQLite 3.40 to
    /// 3.51) then scored some rows after one holding the phrase's words apart as if they held
    /// fewer terms (`BoundedSearchTests`).
    private func anyWordCandidates(
        _ stats: (entries: Double, terms: [TermStats]), filter: String, values: [SQLValue], title: Double
    ) throws -> [Candidate] {
        let budget = rowBudget(entries: stats.entries)
        var rare: [TermStats] = []
        var rows = 0.0
        for term in stats.terms.sorted(by: { ($0.matches, $0.expression) < ($1.matches, $1.expression) })
        where rare.isEmpty || rows + term.matches <= budget {
            rare.append(term)
            rows += term.matches
        }
        let kept = Set(rare.map(\.expression))
        let common = stats.terms.filter { !kept.contains($0.expression) }
        let r = "(" + rare.map(\.expression).joined(separator: " OR ") + ")"
        if common.isEmpty { return try candidatesFor(r, filter: filter, values: values, title: title) }
        let c = "(" + common.map(\.expression).joined(separator: " OR ") + ")"
        let both =
            try candidatesFor("\(r) NOT \(c)", filter: filter, values: values, title: title)
            + candidatesFor("\(c) AND \(r)", filter: filter, values: values, title: title)
        return Array(both.sorted { ($0.score, $1.rowid) > ($1.score, $0.rowid) }.prefix(ranking.candidates))
    }

    /// Multiplies each candidate's score by its coverage of the query (the share of the terms'
    /// IDF it holds) raised to ``Ranking/coverage``.
    private func weighByCoverage(_ candidates: inout [Candidate], _ stats: (entries: Double, terms: [TermStats])) throws {
        let total = stats.terms.map(\.idf).reduce(0, +)
        guard !candidates.isEmpty, total > 0 else { return }
        for i in candidates.indices {
            let share = Self.share(of: stats.terms, heldBy: candidates[i].rowid, total: total)
            candidates[i].coverage = share
            candidates[i].score *= pow(share, ranking.coverage)
        }
    }

    /// A question names what it is about in words its skill's description holds ("Slack",
    /// "memory", "VoiceOver") more often than in the answering section's own words: each candidate
    /// is weighed by the share of the query's IDF that its skill's entry (name and description)
    /// holds. The terms' rows, read for coverage, tell which skill entries hold them.
    private func weighBySkillMatch(_ candidates: inout [Candidate], _ stats: (entries: Double, terms: [TermStats])) throws {
        let total = stats.terms.map(\.idf).reduce(0, +)
        guard ranking.skillMatch != 0, !candidates.isEmpty, total > 0 else { return }
        let sql = """
            SELECT e.rowid, s.rowid FROM entries e JOIN entries s ON s.skill = e.skill AND s.kind = 'skill'
            WHERE e.rowid IN (\(candidates.map { _ in "?" }.joined(separator: ",")))
            """
        var skillEntry: [Int64: Int64] = [:]
        for (entry, skill) in try db.query(sql, candidates.map { .int($0.rowid) }, { ($0.int(0), $0.int(1)) }) {
            skillEntry[entry] = skill
        }
        for i in candidates.indices {
            guard let skill = skillEntry[candidates[i].rowid] else { continue }
            candidates[i].score *= 1 + ranking.skillMatch * Self.share(of: stats.terms, heldBy: skill, total: total)
        }
    }

    /// The share of the terms' IDF (of `total`, their sum) that the entry `rowid` holds.
    private static func share(of terms: [TermStats], heldBy rowid: Int64, total: Double) -> Double {
        min(1, terms.filter { sortedContains($0.rowids, rowid) }.map(\.idf).reduce(0, +) / total)
    }

    /// Words next to each other in the query and in the entry are stronger evidence than the
    /// same words apart ("main thread", "pull request"): each adjacent pair is a phrase query.
    private func weighByAdjacentPairs(_ candidates: inout [Candidate], _ terms: [SearchQuery.Term]) throws {
        let words = terms.compactMap { term -> String? in
            switch term {
            case .word(let w): return w
            case .either(let words): return words[0]
            default: return nil
            }
        }
        guard ranking.pairs > 0, words.count > 1, !candidates.isEmpty else { return }
        let pairs = try zip(words, words.dropFirst()).map { try matching(Self.expression(.phrase($0 + " " + $1))) }
        for i in candidates.indices {
            let held = pairs.filter { Self.sortedContains($0, candidates[i].rowid) }.count
            candidates[i].score *= 1 + ranking.pairs * Double(held) / Double(words.count - 1)
        }
    }

    /// Whether one rowid is in every one of the ascending lists.
    static func shareARow(_ lists: [[Int64]]) -> Bool {
        guard let shortest = lists.min(by: { $0.count < $1.count }) else { return false }
        return shortest.contains { rowid in lists.allSatisfy { sortedContains($0, rowid) } }
    }

    /// Whether the ascending `rowids` hold `rowid` (a binary search).
    static func sortedContains(_ rowids: [Int64], _ rowid: Int64) -> Bool {
        var low = 0
        var high = rowids.count
        while low < high {
            let mid = (low + high) / 2
            if rowids[mid] < rowid { low = mid + 1 } else { high = mid }
        }
        return low < rowids.count && rowids[low] == rowid
    }

    /// The best ``Ranking/candidates`` entries matching `expression` by BM25, the title weighing `title`.
    private func candidatesFor(_ expression: String, filter: String, values: [SQLValue], title: Double) throws -> [Candidate] {
        let r = ranking
        let weights = "bm25(\(title), \(r.breadcrumb), \(r.keywords), \(r.text), \(r.code))"
        let columns = Self.candidateColumns
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
        return try db.query(sql, [.text(expression)] + values) { Self.candidate($0, score: -$0.double(7)) }
    }

    /// What ``candidate(_:score:)`` reads, in its order.
    private static let candidateColumns = "e.rowid, e.id, e.kind, e.title, e.keywords, e.role, e.hash"

    /// A candidate from columns 0-6: rowid, id, kind, title, keywords, role, hash.
    private static func candidate(_ row: Statement, score: Double) -> Candidate {
        Candidate(
            rowid: row.int(0), id: row.text(1), kind: row.text(2), title: row.text(3), keywords: row.text(4),
            role: EntryRole(rawValue: row.text(5)), hash: row.text(6), score: score)
    }

    /// A location from the columns skill, crumbs, path, line, end_line, file, breadcrumb, the
    /// first at `first`.
    private static func location(_ row: Statement, at first: Int32) -> Location {
        Location(
            skill: row.text(first), crumbs: row.text(first + 1), breadcrumb: row.text(first + 6), path: row.text(first + 2),
            file: row.text(first + 5), line: Int(row.int(first + 3)), endLine: Int(row.int(first + 4)))
    }

    /// The same document, byte for byte, in skills shadowed by a skill of an earlier root: they
    /// are watched, not indexed, so their documents' hashes find them.
    private func shadowedCopies(of location: Location) throws -> [Location] {
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

    private static func other(_ id: String, _ l: Location) -> OtherLocation {
        OtherLocation(id: id, skill: l.skill, source: SourceSpan(path: l.path, line: l.line, endLine: l.endLine), absolutePath: l.file)
    }

    private func locationsFor(_ rowids: [Int64]) throws -> [Int64: Location] {
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

    private static func result(_ c: Candidate, _ l: Location, snippet: String) -> SearchResult {
        let crumbs = IndexBuilder.crumbs(stored: l.crumbs, breadcrumb: l.breadcrumb, title: c.title)
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
            case .anyOf(let words), .either(let words): return [words[0]]
            case .phrase(let p), .compound(let p): return p.split(separator: " ").map(String.init)
            }
        }
        let stems = words.map(Self.stem)
        let queryWords = Set(words.flatMap(SearchQuery.tokens))
        var scored = candidates.map { c -> Candidate in
            var c = c
            c.score *= ranking.kinds[c.kind] ?? 1
            if c.role == .routing { c.score *= ranking.routing }
            if c.role == .about { c.score *= ranking.about }
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
        // keep the better-ranked one. Identical entries (another copy of a skill or a document)
        // are one result that lists the other places.
        var places = Set<Substring>()
        var byHash: [String: Int] = [:]
        var top: [Candidate] = []
        for c in scored {
            if let kept = byHash[c.hash] {
                top[kept].copies.append(c)
            } else if top.count < limit, places.insert(EntryPlace.section(of: c.id)).inserted {
                byHash[c.hash] = top.count
                top.append(c)
            }
        }
        return top
    }

    /// A crude stem for comparing query words with title words: the word without common endings.
    static func stem(_ word: String) -> String {
        let count = word.count
        for suffix in ["ations", "ation", "ings", "ing", "ies", "ers", "ed", "es", "er", "s"]
        where count > suffix.count + 3 && word.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count))
        }
        return word
    }

    private func snippetsFor(_ rowids: [Int64], expression: String) throws -> [Int64: String] {
        try Snippets.make(for: rowids, matching: expression, in: db)
    }

    /// One line of text: runs of whitespace become one space.
    static func flatten(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A term as a quoted FTS5 expression: the user's text never reaches MATCH unquoted. In a
    /// question (`inQuestion`), a compound's parts need not be neighbours.
    static func expression(_ term: SearchQuery.Term, inQuestion: Bool = false) -> String {
        func quote(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        /// The word and its abbreviations or expansions.
        func withAlternatives(_ w: String) -> [String] { [w] + (synonyms[w] ?? []) + (abbreviations[w] ?? []) }
        switch term {
        case .word(let w), .phrase(let w), .compound(let w):
            var itself = quote(w)
            if case .compound = term, inQuestion {
                itself = "(" + w.split(separator: " ").map { quote(String($0)) }.joined(separator: " AND ") + ")"
            }
            let others = withAlternatives(w).dropFirst().map(quote)
            return others.isEmpty ? itself : "(" + ([itself] + others).joined(separator: " OR ") + ")"
        case .prefix(let p):
            return quote(p) + "*"
        case .anyOf(let words):
            return "(" + quote(words[0]) + "* OR " + words.dropFirst().map(quote).joined(separator: " OR ") + ")"
        case .either(let words):
            // Each form keeps its own abbreviations ("localization" and its group still find "l10n").
            var seen = Set<String>()
            let all = words.flatMap(withAlternatives).filter { seen.insert($0).inserted }
            return "(" + all.map(quote).joined(separator: " OR ") + ")"
        }
    }

    /// Two query words that spell an abbreviated phrase ("pull request") become that phrase, so
    /// that it also matches the abbreviation.
    static func joinAbbreviatedPhrases(_ terms: [SearchQuery.Term]) -> [SearchQuery.Term] {
        var joined: [SearchQuery.Term] = []
        var i = 0
        while i < terms.count {
            if i + 1 < terms.count, case .word(let a) = terms[i], case .word(let b) = terms[i + 1], abbreviations["\(a) \(b)"] != nil {
                joined.append(.phrase("\(a) \(b)"))
                i += 2
            } else {
                joined.append(terms[i])
                i += 1
            }
        }
        return joined
    }

    /// Whether every word of the query is in more entries than ``rowBudget(entries:)``: then
    /// ranking is narrowed to the heavy columns first.
    private func isCommon(_ terms: [SearchQuery.Term]) throws -> Bool {
        var fewest = Int64.max
        for term in terms {
            guard case .word(let w) = term else { return false }
            fewest = min(fewest, try entriesHolding(w))
            // Counting the entries (a scan of an index) only when the budget's floor is passed.
            if fewest <= Int64(ranking.scoredRows.lowerBound) { return false }
        }
        guard !terms.isEmpty else { return false }
        return Double(fewest) > rowBudget(entries: try entryCount())
    }

    /// How many entries the index holds.
    private func entryCount() throws -> Double {
        Double(try db.scalar("SELECT count(*) FROM entries") ?? 0)
    }

    // MARK: Prefixes

    /// Porter-stemmed tokens do not keep their endings (`pagination` is indexed as `pagin`), so a
    /// prefix is expanded to the unstemmed indexed words it starts (the 32 most common).
    private func expandPrefixes(_ query: inout SearchQuery) throws {
        query.terms = try query.terms.map { term in
            guard case .prefix(let p) = term, let last = p.unicodeScalars.last,
                let next = UnicodeScalar(last.value + 1)
            else { return term }
            let upper = String(p.unicodeScalars.dropLast()) + String(Character(next))
            let words = try db.query(
                "SELECT term FROM words_vocab WHERE term >= ? AND term < ? ORDER BY doc DESC LIMIT 32",
                [.text(p), .text(upper)]
            ) { $0.text(0) }
            return words.isEmpty ? term : .anyOf([p] + words)
        }
    }

    // MARK: Word forms

    /// Each word also matches the forms of it that FTS5's Porter stemming keeps apart
    /// (``WordForms``): its base without `re-` or `un-` when the index holds the base in more
    /// entries ("relaunch" finds "launch"), and its derived forms and American spellings that the
    /// index holds ("quickly" finds "quick", "description" finds "describe", "colours" finds
    /// "colors"). BM25 still weighs each form by its own IDF, so an entry with the asker's word
    /// ranks above one with only another form.
    private func addWordForms(_ query: inout SearchQuery) throws {
        query.terms = try query.terms.map { term in
            guard case .word(let word) = term else { return term }
            var forms = [word]
            let bases = WordForms.bases(of: word)
            if !bases.isEmpty {
                let held = try entriesHolding(word)
                if let base = try bases.first(where: { try entriesHolding($0) > held }) { forms.append(base) }
            }
            let variants = WordForms.variants(of: word)
            if !variants.isEmpty {
                let stem = try porterStem(word)
                for form in variants where !forms.contains(form) {
                    if try entriesHolding(form) > 0, try porterStem(form) != stem { forms.append(form) }
                }
            }
            if ranking.thesaurus != 0 {
                for other in Thesaurus.alternatives(of: word) where !forms.contains(other) {
                    if try entriesHolding(other) > 0 { forms.append(other) }
                }
            }
            return forms.count > 1 ? .either(forms) : term
        }
    }

    /// `word` as FTS5's tokenizer indexes it (its Porter stem).
    private func porterStem(_ word: String) throws -> [UInt8] {
        try db.tokens(of: word, tokenizer: Schema.tokenizer, query: true).first?.term ?? []
    }

    /// How many entries hold `word`, unstemmed.
    private func entriesHolding(_ word: String) throws -> Int64 {
        try db.scalar("SELECT doc FROM words_vocab WHERE term = ?", [.text(word)]) ?? 0
    }

    // MARK: Typos

    /// ``EditDistance`` of two words, over bytes when both are ASCII (the same, and faster).
    static func distance(_ a: String, _ b: String, limit: Int) -> Int {
        if a.utf8.allSatisfy({ $0 < 0x80 }), b.utf8.allSatisfy({ $0 < 0x80 }) {
            return EditDistance.between(Array(a.utf8), Array(b.utf8), limit: limit)
        }
        return EditDistance.between(Array(a), Array(b), limit: limit)
    }

    /// Replaces each word the index has never seen by the nearest indexed word (two neighbouring
    /// letters swapped for words of 4 letters, edit distance 1 for 5 to 7, 2 from 8), the most
    /// common one on a tie. Returns the changes.
    private func correctTypos(_ query: inout SearchQuery) throws -> [String: String] {
        var corrections: [String: String] = [:]
        var kept: [SearchQuery.Term] = []
        for term in query.terms {
            guard case .word(let word) = term, Self.synonyms[word] == nil, Thesaurus.alternatives(of: word).isEmpty,
                word.allSatisfy(\.isLetter)
            else {
                kept.append(term)
                continue
            }
            if try entriesHolding(word) > 0 {
                kept.append(term)
                continue
            }
            // A word of four letters is corrected only by swapping two neighbours ("bakc" →
            // "back", "lnie" → "line"): any other edit of so short a word makes another word.
            let swapOnly = word.count == 4
            let allowed = word.count >= 8 ? 2 : word.count >= 4 ? 1 : 0
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
                    if swapOnly, candidate.count != 4 || candidate.sorted() != word.sorted() { continue }
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
