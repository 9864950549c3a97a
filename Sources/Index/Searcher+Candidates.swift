import Foundation
import SkillParser

/// Candidate retrieval, the second stage: BM25 over the weighted columns, every word required
/// (a keyword query) or any word with bounded work (a question).
extension Searcher {
    /// Every word must match. For words in most entries, the entries that have them in a title,
    /// breadcrumb or keyword are ranked first (the heavy columns would win anyway).
    func strictCandidates(
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
    struct TermStats {
        var expression: String
        /// The entries that hold it, in ascending order.
        var rowids: [Int64]
        /// Its inverse document frequency, in BM25's form.
        var idf: Double
        var matches: Double { Double(rowids.count) }
    }

    func termStats(_ expressions: [String], entries: Double) throws -> (entries: Double, terms: [TermStats]) {
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
    func matching(_ expression: String) throws -> [Int64] {
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
    func anyWordCandidates(
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
    func candidatesFor(_ expression: String, filter: String, values: [SQLValue], title: Double) throws -> [Candidate] {
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
    static let candidateColumns = "e.rowid, e.id, e.kind, e.title, e.keywords, e.role, e.hash"

    /// A candidate from columns 0-6: rowid, id, kind, title, keywords, role, hash.
    static func candidate(_ row: Statement, score: Double) -> Candidate {
        Candidate(
            rowid: row.int(0), id: row.text(1), kind: row.text(2), title: row.text(3), keywords: row.text(4),
            role: EntryRole(rawValue: row.text(5)), hash: row.text(6), score: score)
    }

    /// Whether every word of the query is in more entries than ``rowBudget(entries:)``: then
    /// ranking is narrowed to the heavy columns first.
    func isCommon(_ terms: [SearchQuery.Term]) throws -> Bool {
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
    func entryCount() throws -> Double {
        Double(try db.scalar("SELECT count(*) FROM entries") ?? 0)
    }

    // MARK: Prefixes
}
