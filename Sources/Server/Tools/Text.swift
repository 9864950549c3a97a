import Foundation

/// Small text helpers for replies.
enum Text {
    /// `text` cut to at most `limit` characters, ending with `…` when cut.
    static func clip(_ text: String, _ limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(0, limit - 1))) + "…"
    }
}
