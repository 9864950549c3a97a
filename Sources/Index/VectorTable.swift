import Foundation
import SkillParser

/// The sentence vectors of one index's entries, in a file beside it (`<index>.vectors`) that a
/// search memory-maps: no row is decoded to find a query's neighbours.
///
/// Each row names its entry by rowid and by the entry's content hash (the `hash` column): a row
/// whose entry has since changed (an incremental build reuses rowids) no longer matches its hash
/// and is ignored, so the file can lag the index but never give a wrong neighbour.
///
/// Layout, little-endian: the magic `SKVECT01`, the dimension and the row count (UInt32 each),
/// then the rowids (Int64), the hashes (UInt64), and the vectors (Float32, L2-normalised), each
/// part 8-byte aligned.
final class VectorTable: @unchecked Sendable {  // immutable after init; the mapping is read-only
    static let magic = Array("SKVECT01".utf8)
    /// The file beside an index.
    static func url(besideIndex index: URL) -> URL { URL(fileURLWithPath: index.path + ".vectors") }

    let dimension: Int
    let count: Int
    /// What the file was when mapped: a newer file is mapped again.
    let stamp: FileStamp
    private let mapping: MappedFile

    private var rowids: UnsafeBufferPointer<Int64> { mapping.buffer(of: Int64.self, at: 16, count: count) }
    private var hashes: UnsafeBufferPointer<UInt64> { mapping.buffer(of: UInt64.self, at: 16 + 8 * count, count: count) }
    private var vectors: UnsafeBufferPointer<Float> {
        mapping.buffer(of: Float.self, at: 16 + 16 * count, count: count * dimension)
    }

    /// Maps the file at `url`; `nil` when it is missing, of another dimension or not whole.
    init?(contentsOf url: URL, dimension: Int) {
        guard let stamp = FileStamp.of(url.path), let mapping = MappedFile(path: url.path), mapping.size >= 16,
            Array(mapping.bytes(0..<8)) == Self.magic
        else { return nil }
        let header = mapping.buffer(of: UInt32.self, at: 8, count: 2)
        let count = Int(UInt32(littleEndian: header[1]))
        guard Int(UInt32(littleEndian: header[0])) == dimension, mapping.size == 16 + 16 * count + 4 * count * dimension else {
            return nil
        }
        self.dimension = dimension
        self.count = count
        self.stamp = stamp
        self.mapping = mapping
    }

    /// A row of the table: an entry and its vector.
    struct Row {
        var rowid: Int64
        var hash: UInt64
        var vector: [Float]
    }

    /// Writes `rows` to `url` through a temporary file renamed into place: a reader maps the old
    /// file or the new one, never a part.
    static func write(_ rows: [Row], dimension: Int, to url: URL) throws {
        var data = Data(magic)
        func append<T>(_ values: [T]) { values.withUnsafeBytes { data.append(contentsOf: $0) } }
        append([UInt32(dimension).littleEndian, UInt32(rows.count).littleEndian])
        append(rows.map(\.rowid.littleEndian))
        append(rows.map(\.hash.littleEndian))
        for row in rows {
            precondition(row.vector.count == dimension, "a vector of another dimension")
            append(row.vector.map(\.bitPattern.littleEndian))
        }
        let temp = url.path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temp, contents: data) else {
            throw IndexError.unwritable(url.path, "cannot write \(temp)")
        }
        guard rename(temp, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw IndexError.unwritable(url.path, reason)
        }
    }

    /// Whether the table holds exactly `rows`, in order.
    func holds(_ rows: [Row]) -> Bool {
        guard rows.count == count else { return false }
        let vectors = self.vectors
        for (i, row) in rows.enumerated() {
            guard Int64(littleEndian: rowids[i]) == row.rowid, UInt64(littleEndian: hashes[i]) == row.hash,
                row.vector.elementsEqual(vectors[(i * dimension)..<((i + 1) * dimension)])
            else { return false }
        }
        return true
    }

    /// The rows most similar to `query` (a normalised vector), best first, at most `limit`, each
    /// at least `floor` in cosine similarity.
    func nearest(to query: [Float], limit: Int, floor: Float) -> [(rowid: Int64, hash: UInt64, similarity: Float)] {
        guard query.count == dimension, limit > 0 else { return [] }
        var best: [(index: Int, similarity: Float)] = []
        best.reserveCapacity(limit + 1)
        let vectors = self.vectors
        query.withUnsafeBufferPointer { q in
            for row in 0..<count {
                let similarity = Self.dot(q, vectors, from: row * dimension)
                guard similarity >= floor, best.count < limit || similarity > best[best.count - 1].similarity else { continue }
                // Insertion into the short sorted list: `limit` is small beside the rows.
                let at = best.firstIndex { $0.similarity < similarity } ?? best.count
                best.insert((row, similarity), at: at)
                if best.count > limit { best.removeLast() }
            }
        }
        return best.map { (Int64(littleEndian: rowids[$0.index]), UInt64(littleEndian: hashes[$0.index]), $0.similarity) }
    }

    /// The dot product of `q` with the `q.count` floats of `v` from `start`, eight lanes at a time.
    private static func dot(_ q: UnsafeBufferPointer<Float>, _ v: UnsafeBufferPointer<Float>, from start: Int) -> Float {
        guard let qBase = q.baseAddress, let vBase = v.baseAddress else { return 0 }
        let a = UnsafeRawPointer(qBase)
        let b = UnsafeRawPointer(vBase + start)
        var lanes = SIMD8<Float>()
        var i = 0
        while i + 8 <= q.count {
            lanes +=
                a.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
                * b.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        var sum = lanes.sum()
        while i < q.count {
            sum += qBase[i] * vBase[start + i]
            i += 1
        }
        return sum
    }
}

/// A file mapped read-only into memory, unmapped when released.
final class MappedFile: @unchecked Sendable {  // the mapping is never written
    let size: Int
    private let base: UnsafeRawPointer

    /// Maps the file at `path`; `nil` when it cannot be opened or is empty.
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, let address = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0),
            address != MAP_FAILED
        else { return nil }
        size = Int(info.st_size)
        base = UnsafeRawPointer(address)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    /// The bytes in `range`.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// `count` values of `type` from byte `offset` (aligned for `type`, as the writer makes it).
    func buffer<T>(of type: T.Type, at offset: Int, count: Int) -> UnsafeBufferPointer<T> {
        UnsafeBufferPointer(start: (base + offset).assumingMemoryBound(to: T.self), count: count)
    }
}
