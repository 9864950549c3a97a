import Foundation
import SkillParser

/// Ranks entries for a query: BM25 over weighted columns in SQLite, then a re-ranking of the
/// best candidates in Swift (title coverage, Swift symbols, duplicates of one section).
struct Searcher {
    let db: Database
    var ranking = Ranking.current
    /// Whether a word is in a dictionary (the sentence encoder's vocabulary, when a model is set
    /// up): such a word is never "corrected".
    var isDictionaryWord: (String) -> Bool = { _ in false }

    /// What the re-ranking reads of an entry.
    struct Candidate {
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
    struct Location {
        var skill: String
        /// The `crumbs` column: JSON, or empty when `breadcrumb` and the title give the headings.
        var crumbs: String
        var breadcrumb: String
        var path: String
        var file: String
        var line: Int
        var endLine: Int
    }

    /// The results for `text`, best first.
    /// - Parameter vectors: gives the query's vector and the index's vector table, for the vector
    ///   stage and fusion, called only when they take part (a question); `nil` ranks by words alone.
    func search(
        _ text: String, kind: EntryKind?, skill: String?, limit: Int, vectors: VectorSource? = nil
    ) throws -> SearchResults {
        var query = SearchQuery(parsing: text)
        if let kind { query.kinds.append(kind) }
        if let skill { query.skills.append(skill) }
        var results = SearchResults(query: text, results: [])
        guard !query.isEmpty, limit > 0 else { return results }
        let asked = !query.terms.isEmpty
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

        if asked, query.terms.isEmpty {
            // No word of the query is in the index, nor near one: the vector stage alone, or
            // nothing (never every entry, as a query of filters alone lists them).
            guard ranking.vectorWeight > 0, let vectors = vectors?() else { return results }
            let top = fuse([], try vectorCandidates(vectors, filter: filter, values: values), limit: limit)
            results.results = try assemble(top, expression: "")
            return results
        }
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
        // Keywords name the words wanted, and the lexical ranking answers them (even when no entry
        // holds them all); a question in the asker's words, or keywords that no entry holds, is
        // where other words for the same thing are missed (docs/search.md: The vector stage).
        let stage = ranking.vectorWeight > 0 && (soft || candidates.isEmpty) ? vectors?() : nil
        var top = rerank(candidates, query: query, limit: stage != nil ? max(limit, ranking.fusionDepth) : limit)
        if let vectors = stage {
            top = fuse(top, try vectorCandidates(vectors, filter: filter, values: values), limit: limit)
        }
        results.results = try assemble(top, expression: expressions.joined(separator: " OR "))
        if soft { results.partial = !top.isEmpty && !top.contains { $0.coverage >= 1 } }
        return results
    }
}
