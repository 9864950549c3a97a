import Foundation
import SkillIndex

/// Small text helpers for replies.
enum Text {
    /// `text` cut to at most `limit` characters, ending with `…` when cut.
    static func clip(_ text: String, _ limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// Up to `limit` candidates nearest to `word` by edit distance, within the budget of
    /// ``IDSuggestions`` (the word cut to its first characters, the distance capped).
    static func nearest(_ word: String, in candidates: [String], limit: Int) -> [String] {
        let lower = String(word.lowercased().prefix(IDSuggestions.maxLength))
        let w = Array(lower)
        let bound = min(IDSuggestions.maxDistance, max(3, w.count / 2))
        var scored: [(String, Int)] = []
        for candidate in candidates.prefix(IDSuggestions.maxCandidates) {
            let c = candidate.lowercased()
            var d = EditDistance.between(w, Array(c), limit: bound + 4)
            if c.contains(lower) || lower.contains(c) { d -= 4 }
            if d <= bound { scored.append((candidate, d)) }
        }
        scored.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        return scored.prefix(limit).map(\.0)
    }
}
