import Foundation

/// A file's text as lines, decoded leniently: invalid UTF-8 and NUL bytes become U+FFFD and are
/// reported, CRLF line ends are read as LF.
struct SourceText: Sendable {
    /// The lines without their line ends; `lines[0]` is file line 1.
    let lines: [Substring]
    /// The whole text, as decoded.
    let text: String
    /// Whether some line ended with `\r\n`.
    private let hasCarriageReturns: Bool

    init(bytes: Data, path: String, diagnostics: inout [Diagnostic]) {
        var text: String
        let validated = bytes.withUnsafeBytes { String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) }
        if let valid = validated {
            text = valid
        } else {
            text = String(decoding: bytes, as: UTF8.self)
            let line = SourceText.firstLine(in: bytes) { String(validating: $0, as: UTF8.self) == nil }
            diagnostics.append(
                Diagnostic(
                    .error, .invalidUTF8,
                    "the file is not valid UTF-8; the bad bytes were read as U+FFFD. Save the file as UTF-8",
                    path: path, line: line))
        }
        if bytes.withUnsafeBytes({ raw in raw.baseAddress.map { memchr($0, 0, raw.count) != nil } ?? false }) {
            let line = SourceText.firstLine(in: bytes) { $0.contains(0) }
            diagnostics.append(
                Diagnostic(
                    .error, .nulByte,
                    "the file holds NUL bytes, which were read as U+FFFD; a markdown file should not contain them",
                    path: path, line: line))
            text = text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
        }
        self.lines = SourceText.split(text)
        self.text = text
        hasCarriageReturns = text.utf8.contains(0x0D)
    }

    /// The text from the start of file line `number` (1-based) to the end, line ends as written.
    func text(fromLine number: Int) -> Substring {
        guard number > 1 else { return text[...] }
        guard number <= lines.count else { return text[text.endIndex...] }
        return text[lines[number - 1].startIndex...]
    }

    /// The lines of `text` without their `\n` or `\r\n` ends, split on bytes (Characters would
    /// be slower, and `\r\n` is one Character).
    static func split(_ text: String) -> [Substring] {
        let utf8 = text.utf8
        var lines: [Substring] = []
        // Offsets of the line ends first, over the contiguous bytes; then one slice per line.
        let ends: [Int] =
            utf8.withContiguousStorageIfAvailable { bytes in
                var ends: [Int] = []
                for (offset, byte) in bytes.enumerated() where byte == 0x0A { ends.append(offset) }
                return ends
            } ?? utf8.enumerated().filter { $0.element == 0x0A }.map(\.offset)
        lines.reserveCapacity(ends.count + 1)
        var start = 0
        for end in ends + [utf8.count] where end > start || end < utf8.count {
            var stop = end
            if stop > start, utf8[utf8.index(utf8.startIndex, offsetBy: stop - 1)] == 0x0D { stop -= 1 }
            let lower = utf8.index(utf8.startIndex, offsetBy: start)
            let upper = utf8.index(utf8.startIndex, offsetBy: stop)
            lines.append(text[lower..<upper])
            start = end + 1
        }
        return lines
    }

    /// The 1-based line of the first line whose bytes satisfy `isBad`.
    private static func firstLine(in bytes: Data, where isBad: (Data) -> Bool) -> Int {
        var line = 1
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
            if isBad(bytes[start..<end]) { return line }
            line += 1
            start = end < bytes.endIndex ? end + 1 : end
        }
        return line
    }

    /// The text of file lines `from` through `to` (1-based, inclusive), clamped to the file,
    /// with `\n` line ends.
    func slice(_ from: Int, _ to: Int) -> String {
        let lower = max(from, 1) - 1
        let upper = min(to, lines.count)
        guard lower < upper else { return "" }
        // Without CRLF ends the lines stand in the text as they are: one copy, no join.
        if !hasCarriageReturns { return String(text[lines[lower].startIndex..<lines[upper - 1].endIndex]) }
        return lines[lower..<upper].joined(separator: "\n")
    }

    /// File lines `from` through `to` (1-based, inclusive), clamped to the file.
    func lines(_ from: Int, _ to: Int) -> [Substring] {
        let lower = max(from, 1) - 1
        let upper = min(to, lines.count)
        return lower < upper ? Array(lines[lower..<upper]) : []
    }

    /// File line `number` (1-based), or an empty string past the end.
    func line(_ number: Int) -> Substring {
        number >= 1 && number <= lines.count ? lines[number - 1] : ""
    }
}
