// Plain byte and scalar searches. Foundation's `contains(_:)` on strings goes through NSString,
// and the standard library's generic `firstRange(of:)` through generic metadata: together they
// were most of the parser's time on the corpus.
extension StringProtocol {
    /// Whether `needle` occurs in the text, compared byte by byte (UTF-8).
    func has(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        return utf8.withContiguousStorageIfAvailable { bytes in
            Self.find(pattern, first, in: bytes)
        } ?? Array(utf8).withUnsafeBufferPointer { Self.find(pattern, first, in: $0) }
    }

    private static func find(_ pattern: UnsafeBufferPointer<UInt8>, _ first: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= pattern.count else { return false }
        var i = 0
        let last = bytes.count - pattern.count
        while i <= last {
            if bytes[i] == first {
                var k = 1
                while k < pattern.count, bytes[i + k] == pattern[k] { k += 1 }
                if k == pattern.count { return true }
            }
            i += 1
        }
        return false
    }

    /// Whether any of `scalars` occurs in the text.
    /// `scalars` are non-ASCII signs (❌ ✅ ├): ASCII text is passed over byte by byte, and only the
    /// non-ASCII scalars of a text are looked up (hashing every scalar of a line that holds one
    /// em dash was 2 % of a build).
    func hasAny(of scalars: Set<Unicode.Scalar>) -> Bool {
        utf8.contains { $0 >= 0x80 } && unicodeScalars.contains { !$0.isASCII && scalars.contains($0) }
    }
}
