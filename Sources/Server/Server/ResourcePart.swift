import Foundation

/// One reply-sized part of a resource. A `resources/read` reply holds at most
/// ``MCPServer/Configuration/resourceBudget`` bytes of a file; a longer file is read in parts
/// through `?offset=N` on its URI, and each part but the last ends with a note naming the next.
struct ResourcePart {
    /// The bytes of this part.
    var data: Data
    /// Where the next part starts, when there is one.
    var next: Int?

    /// The first part of `window` (a file's bytes from some offset, a few more than `budget`
    /// when the file goes on): at most `budget` bytes, starting after any UTF-8 continuation
    /// bytes, cut at a line end when one falls in its last quarter and never inside a character.
    /// `next` counts from the start of `window`.
    init(of window: Data, budget: Int) {
        let bytes = window.startIndex == 0 ? window : Data(window)
        var start = 0
        while start < bytes.count, bytes[start] & 0xC0 == 0x80 { start += 1 }
        var end = min(bytes.count, start + budget)
        if end < bytes.count {
            while end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if let newline = bytes[min(start + budget * 3 / 4, end)..<end].lastIndex(of: 0x0A) { end = newline + 1 }
        }
        data = bytes.subdata(in: start..<end)
        next = end < bytes.count ? end : nil
    }

    /// The note that ends a part that is not the last.
    static func note(uri: String, size: Int, next: Int) -> String {
        "\n\n[skill: this file is \(size) bytes and this reply stops at byte \(next); read \(uri)?offset=\(next) for the rest]"
    }

    /// The URI without an `?offset=N` suffix, and the offset (0 when absent).
    /// Returns `nil` for a malformed offset.
    static func split(_ uri: String) -> (uri: String, offset: Int)? {
        guard let mark = uri.range(of: "?offset=", options: .backwards) else { return (uri, 0) }
        guard let offset = Int(uri[mark.upperBound...]), offset >= 0 else { return nil }
        return (String(uri[..<mark.lowerBound]), offset)
    }
}
