/// The vocabulary's pieces as a hash table from UTF-8 bytes to ids, built straight from the model
/// file's vocabulary bytes: no `String` per piece (Swift compares strings by canonical equivalence,
/// the reference by bytes) and no allocation per lookup.
struct PieceTable: Sendable {
    /// The vocabulary bytes: pieces in id order, "\n" between.
    private let bytes: [UInt8]
    /// Where each piece starts in `bytes`; one more entry than pieces (the end of the last + 1).
    private let starts: [Int32]
    /// Open addressing, linear probing: an id, or -1 for an empty slot. Initial pieces ("play")
    /// and continuations ("##ing", keyed without their "##") in tables of their own.
    private let initial: [Int32]
    private let continuing: [Int32]
    private let mask: Int

    /// A table over `vocabulary` (pieces separated by "\n"); of two equal pieces the later wins, as
    /// in the reference's map.
    init(vocabulary: [UInt8]) {
        var starts: [Int32] = [0]
        for (index, byte) in vocabulary.enumerated() where byte == 0x0A { starts.append(Int32(index + 1)) }
        starts.append(Int32(vocabulary.count + 1))
        let pieces = starts.count - 1
        var size = 1
        while size < pieces * 2 { size <<= 1 }
        var initial = [Int32](repeating: -1, count: size)
        var continuing = [Int32](repeating: -1, count: size)
        vocabulary.withUnsafeBufferPointer { all in
            for id in 0..<pieces {
                let start = Int(starts[id])
                let piece = UnsafeBufferPointer(rebasing: all[start..<(Int(starts[id + 1]) - 1)])
                if piece.count > 2 && piece[0] == 0x23 && piece[1] == 0x23 {
                    Self.insert(id, key: UnsafeBufferPointer(rebasing: piece[2...]), skip: 2, into: &continuing, bytes: all, starts: starts)
                } else {
                    Self.insert(id, key: piece, skip: 0, into: &initial, bytes: all, starts: starts)
                }
            }
        }
        self.bytes = vocabulary
        self.starts = starts
        self.initial = initial
        self.continuing = continuing
        mask = size - 1
    }

    /// The id of the piece spelt `key`, a word's start (`continuation == false`) or a later part.
    func id(of key: UnsafeBufferPointer<UInt8>, continuation: Bool) -> Int32? {
        bytes.withUnsafeBufferPointer { all in
            let slots = continuation ? continuing : initial
            var slot = Self.hash(key) & mask
            while slots[slot] >= 0 {
                let id = Int(slots[slot])
                if Self.piece(id, skip: continuation ? 2 : 0, bytes: all, starts: starts).elementsEqual(key) { return Int32(id) }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    private static func insert(
        _ id: Int, key: UnsafeBufferPointer<UInt8>, skip: Int, into slots: inout [Int32], bytes: UnsafeBufferPointer<UInt8>,
        starts: [Int32]
    ) {
        let mask = slots.count - 1
        var slot = hash(key) & mask
        while slots[slot] >= 0 && !piece(Int(slots[slot]), skip: skip, bytes: bytes, starts: starts).elementsEqual(key) {
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(id)
    }

    private static func piece(_ id: Int, skip: Int, bytes: UnsafeBufferPointer<UInt8>, starts: [Int32]) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[(Int(starts[id]) + skip)..<(Int(starts[id + 1]) - 1)])
    }

    /// FNV-1a over the bytes.
    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: h ^ (h >> 32))
    }
}
