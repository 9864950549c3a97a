/// Bounds what a message repeats of its input: a multi-kilobyte name or value is shown by its
/// first characters and an ellipsis, so one bad value cannot flood a terminal or a reply.
public enum Echo {
    /// The most characters of an input value a message repeats.
    public static let limit = 80

    /// `text` when it has at most `limit` characters, else its first `limit` and `…`.
    public static func bounded(_ text: some StringProtocol, limit: Int = limit) -> String {
        var end = text.startIndex
        var count = 0
        while end < text.endIndex, count < limit {
            end = text.index(after: end)
            count += 1
        }
        return end == text.endIndex ? String(text) : String(text[..<end]) + "…"
    }
}
