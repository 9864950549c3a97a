import Foundation

/// Re-ranking, the third stage: the candidates weighed by coverage, skill match, adjacent
/// pairs, kind and title, and one place kept once.
extension Searcher {
    /// Multiplies each candidate's score by its coverage of the query (the share of the terms'
    /// IDF it holds) raised to ``Ranking/coverage``.
    func weighByCoverage(_ candidates: inout [Candidate], _ stats: (entries: Double, terms: [TermStats])) throws {
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
    func weighBySkillMatch(_ candidates: inout [Candidate], _ stats: (entries: Double, terms: [TermStats])) throws {
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
    static func share(of terms: [TermStats], heldBy rowid: Int64, total: Double) -> Double {
        min(1, terms.filter { sortedContains($0.rowids, rowid) }.map(\.idf).reduce(0, +) / total)
    }

    /// Words next to each other in the query and in the entry are stronger evidence than the
    /// same words apart ("main thread", "pull request"): each adjacent pair is a phrase query.
    func weighByAdjacentPairs(_ candidates: inout [Candidate], _ terms: [SearchQuery.Term]) throws {
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

    /// Re-scores the BM25 candidates and drops an entry when its own section already ranks; the
    /// best `limit` are kept.
    func rerank(_ candidates: [Candidate], query: SearchQuery, limit: Int) -> [Candidate] {
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
}
