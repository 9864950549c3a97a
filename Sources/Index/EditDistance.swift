/// Edit distance for typo tolerance and for suggesting near names and ids.
public enum EditDistance {
    /// Levenshtein distance with adjacent transpositions, stopping early: any result over
    /// `limit` is `limit + 1`.
    public static func between<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMin = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
                rowMin = min(rowMin, current[j])
            }
            if rowMin > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// Up to `limit` candidates nearest to `word` by edit distance, within the budget of
    /// ``IDSuggestions`` (the word cut to its first characters, the distance capped).
    public static func nearest(_ word: String, in candidates: [String], limit: Int) -> [String] {
        let lower = String(word.lowercased().prefix(IDSuggestions.maxLength))
        let w = Array(lower)
        let bound = min(IDSuggestions.maxDistance, max(3, w.count / 2))
        var scored: [(String, Int)] = []
        for candidate in candidates.prefix(IDSuggestions.maxCandidates) {
            let c = candidate.lowercased()
            var d = between(w, Array(c), limit: bound + 4)
            if c.contains(lower) || lower.contains(c) { d -= 4 }
            if d <= bound { scored.append((candidate, d)) }
        }
        scored.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        return scored.prefix(limit).map(\.0)
    }
}
