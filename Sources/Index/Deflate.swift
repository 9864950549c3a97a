import CLibz

/// zlib for the index's long text columns (the only place that touches zlib). A compressed
/// value is a blob: its length (4 bytes, little-endian), then its zlib stream. A value that
/// compressing does not shorten stays text, and every reader takes either (``text(of:)``).
enum Deflate {
    /// Texts shorter than this are stored as they are (the header would eat the gain).
    static let minimumBytes = 64
    /// Level 1: zlib's time on these short texts goes to each value's stream, not to its bytes, so
    /// no level is much faster, and level 9 saves 3 % more (Benchmarks/zlib-levels.sh).
    static let level: Int32 = 1

    /// One zlib stream, reset for each value: zlib's set-up is paid once per build, not once
    /// per text.
    final class Compressor {
        private var stream = z_stream()
        /// Whether `stream` is set up: on first use (a reader never compresses).
        private var ready = false

        deinit { if ready { deflateEnd(&stream) } }

        /// The stored form of `text`: a blob when compressing shortens it, else the text itself.
        func stored(_ text: String) -> SQLValue {
            var text = text
            return text.withUTF8 { compress(UnsafeRawBufferPointer($0)) }.map { .blob($0) } ?? .text(text)
        }

        /// The header and zlib stream of `bytes`, or nil when that is not shorter.
        private func compress(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
            guard bytes.count >= Deflate.minimumBytes, bytes.count <= Int(UInt32.max) else { return nil }
            if !ready {
                guard deflateInit_(&stream, Deflate.level, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
                ready = true
            } else if deflateReset(&stream) != Z_OK {
                return nil
            }
            var out = [UInt8](repeating: 0, count: 4 + Int(deflateBound(&stream, uLong(bytes.count))))
            let count = UInt32(bytes.count)
            for i in 0..<4 { out[i] = UInt8(truncatingIfNeeded: count >> (8 * UInt32(i))) }
            let written: Int? = out.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
                stream.avail_in = uInt(bytes.count)
                stream.next_out = output.baseAddress! + 4
                stream.avail_out = uInt(output.count - 4)
                return deflate(&stream, Z_FINISH) == Z_STREAM_END ? output.count - 4 - Int(stream.avail_out) : nil
            }
            guard let written, 4 + written < bytes.count else { return nil }
            out.removeLast(out.count - 4 - written)
            return out
        }
    }

    /// The text of a stored blob, or nil when it is not one (cut short, or not zlib).
    static func text(of blob: UnsafeRawBufferPointer) -> [UInt8]? {
        guard blob.count > 4 else { return nil }
        let count = (0..<4).reduce(0) { $0 | Int(blob[$1]) << (8 * $1) }
        // A stored text is part of one document (a few MiB at most): a larger header is not ours.
        guard count > 0, count <= 64 << 20 else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        var size = uLong(count)
        let source = blob.baseAddress!.assumingMemoryBound(to: UInt8.self) + 4
        let rc = out.withUnsafeMutableBufferPointer { uncompress($0.baseAddress, &size, source, uLong(blob.count - 4)) }
        return rc == Z_OK && Int(size) == count ? out : nil
    }
}
