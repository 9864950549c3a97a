import Foundation
import SkillIndex

/// Small text helpers for replies.
enum Text {
    /// `text` cut to at most `limit` characters, ending with `…` when cut.
    static func clip(_ text: String, _ limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// The markdown of a skill file without its frontmatter.
    static func body(ofSkillFile data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first.map({ $0.trimmingCharacters(in: .whitespaces) == "---" }) == true else { return text }
        guard let close = lines.dropFirst().firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" }) else { return text }
        lines.removeSubrange(0...close)
        while lines.first?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeFirst() }
        return lines.joined(separator: "\n")
    }

    /// Up to `limit` candidates nearest to `word` by edit distance.
    static func nearest(_ word: String, in candidates: [String], limit: Int) -> [String] {
        let lower = word.lowercased()
        let w = Array(lower)
        let bound = max(3, word.count / 2)
        var scored: [(String, Int)] = []
        for candidate in candidates {
            let c = candidate.lowercased()
            var d = EditDistance.between(w, Array(c), limit: bound + 4)
            if c.contains(lower) || lower.contains(c) { d -= 4 }
            if d <= bound { scored.append((candidate, d)) }
        }
        scored.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        return scored.prefix(limit).map(\.0)
    }
}
