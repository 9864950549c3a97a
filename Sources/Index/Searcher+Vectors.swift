import Foundation

/// The vector stage and fusion: entries near the query's sentence vector, their similarity fused
/// with the lexical ranking's scores (docs/search.md: The vector stage).
extension Searcher {
    /// The entries nearest the query's vector, best first, each at least
    /// ``Ranking/similarityFloor`` in cosine, the query's filters applied. A neighbour whose entry
    /// changed since its vector was stored (another content hash) is left out.
    func vectorCandidates(_ query: VectorQuery, filter: String, values: [SQLValue]) throws -> [Candidate] {
        // A filter leaves out most neighbours: look further.
        let depth = ranking.vectorDepth * (filter.isEmpty ? 1 : 10)
        let near = query.table.nearest(to: query.vector, limit: depth, floor: Float(ranking.similarityFloor))
        guard !near.isEmpty else { return [] }
        let sql = """
            SELECT \(Self.candidateColumns) FROM entries e
            WHERE e.rowid IN (\(near.map { _ in "?" }.joined(separator: ",")))\(filter)
            """
        var found: [Int64: Candidate] = [:]
        for candidate in try db.query(sql, near.map { .int($0.rowid) } + values, { Self.candidate($0, score: 0) }) {
            found[candidate.rowid] = candidate
        }
        return near.compactMap { neighbour in
            guard var candidate = found[neighbour.rowid], UInt64(candidate.hash, radix: 16) == neighbour.hash else { return nil }
            candidate.score = Double(neighbour.similarity)
            // No word of the query need be in it: it never makes a result set complete.
            candidate.coverage = 0
            return candidate
        }
    }

    /// Fuses the re-ranked lexical results (one per place, with their copies) with the vector
    /// neighbours. A place scores its lexical score as a share of the first result's, plus
    /// ``Ranking/vectorWeight`` times its similarity above ``Ranking/similarityFloor`` (as a share
    /// of the way from the floor to 1). The lexical ranking keeps its margins, which rank fusion
    /// throws away (docs/search.md: The vector stage). A place keeps the lexical list's entry when
    /// it has one; a neighbour identical to a neighbour listed above (another copy) is one of its
    /// copies.
    func fuse(_ lexical: [Candidate], _ neighbours: [Candidate], limit: Int) -> [Candidate] {
        let top = lexical.first.map { max($0.score, .leastNormalMagnitude) } ?? 1
        let floor = ranking.similarityFloor
        var fused: [Substring: (candidate: Candidate, score: Double, lexicalRank: Int)] = [:]
        var placeOfHash: [String: Substring] = [:]
        for (rank, candidate) in lexical.enumerated() {
            let place = EntryPlace.section(of: candidate.id)
            fused[place] = (candidate, candidate.score / top, rank)
            for copy in [candidate] + candidate.copies { placeOfHash[copy.hash] = place }
        }
        var seen = Set<Substring>()
        for neighbour in neighbours {
            let place = placeOfHash[neighbour.hash] ?? EntryPlace.section(of: neighbour.id)
            guard seen.insert(place).inserted else {
                // A copy of a neighbour listed above is one result that names both places.
                if let kept = fused[place], kept.lexicalRank == Int.max, kept.candidate.hash == neighbour.hash,
                    kept.candidate.rowid != neighbour.rowid
                {
                    fused[place]?.candidate.copies.append(neighbour)
                }
                continue
            }
            placeOfHash[neighbour.hash] = place
            let score = ranking.vectorWeight * max(0, neighbour.score - floor) / (1 - floor)
            if fused[place] == nil {
                fused[place] = (neighbour, score, Int.max)
            } else {
                fused[place]?.score += score
            }
        }
        return fused.values
            .sorted { ($0.score, $1.lexicalRank, $1.candidate.id) > ($1.score, $0.lexicalRank, $0.candidate.id) }
            .prefix(limit)
            .map { entry in
                var candidate = entry.candidate
                candidate.score = entry.score
                return candidate
            }
    }
}
