import Foundation

/// One framed unit of input.
public enum FramedLine: Sendable, Equatable {
    /// A line without its `\n` (and without a trailing `\r`).
    case line(Data)
    /// A line longer than the limit; its bytes were dropped as they arrived.
    case oversized(byteCount: Int)
}

/// Splits a byte stream on `\n` without decoding it, with a cap on the length of a line. Bytes of
/// an oversized line are dropped as they arrive, so a 20 MB line never sits in memory.
public struct LineFramer: Sendable {
    /// The longest line accepted, in bytes.
    public let limit: Int
    private var buffer: [UInt8] = []
    private var discarding = false
    private var discarded = 0

    /// The default limit: 8 MiB.
    public static let defaultLimit = 8 * 1024 * 1024

    public init(limit: Int = LineFramer.defaultLimit) { self.limit = limit }

    /// Feeds bytes; returns the lines they complete. Empty lines are skipped.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> [FramedLine] {
        var out: [FramedLine] = []
        var start = 0
        let count = bytes.count
        while start < count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[start..<count])
            if let nl = rest.firstIndex(of: UInt8(ascii: "\n")) {
                let end = start + nl
                take(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                if let line = finishLine() { out.append(line) }
                start = end + 1
            } else {
                take(rest)
                start = count
            }
        }
        return out
    }

    /// Convenience for tests: feeds `data`.
    public mutating func append(_ data: Data) -> [FramedLine] {
        data.withUnsafeBytes { append($0) }
    }

    /// At end of input: the last line when it had no `\n`.
    public mutating func finish() -> [FramedLine] {
        finishLine().map { [$0] } ?? []
    }

    private mutating func take(_ bytes: UnsafeRawBufferPointer) {
        if discarding {
            discarded += bytes.count
        } else if buffer.count + bytes.count > limit {
            discarding = true
            discarded = buffer.count + bytes.count
            buffer = []
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    private mutating func finishLine() -> FramedLine? {
        defer {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            discarding = false
            discarded = 0
        }
        if discarding { return .oversized(byteCount: discarded) }
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        if buffer.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        return .line(Data(buffer))
    }
}
