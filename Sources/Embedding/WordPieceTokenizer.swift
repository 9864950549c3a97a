/// BERT's uncased WordPiece tokenizer over a model's vocabulary: the ids Hugging Face `tokenizers`
/// gives for all-MiniLM-L6-v2, with [CLS] first and [SEP] last.
struct WordPieceTokenizer: Sendable {
    static let unknownID: Int32 = 100
    static let classID: Int32 = 101
    static let separatorID: Int32 = 102
    /// A longer word is one [UNK], as in the reference (`max_input_chars_per_word`).
    static let maxWordCharacters = 100

    private let pieces: PieceTable

    /// A tokenizer whose ids are the positions of the pieces in `vocabulary` (UTF-8, "\n" between).
    init(vocabulary: [UInt8]) {
        pieces = PieceTable(vocabulary: vocabulary)
    }

    /// The ids of `text`, truncated to `maxTokens` (at least 2) including [CLS] and [SEP].
    func tokenIDs(_ text: String, maxTokens: Int) -> [Int32] {
        let budget = max(maxTokens, 2) - 2
        var ids: [Int32] = [Self.classID]
        var utf8: [UInt8] = []
        var offsets: [Int] = []
        for word in BertNormalizer.words(text) {
            if ids.count - 1 >= budget { break }
            append(word, to: &ids, utf8: &utf8, offsets: &offsets)
        }
        if ids.count - 1 > budget { ids.removeLast(ids.count - 1 - budget) }
        ids.append(Self.separatorID)
        return ids
    }

    /// Greedy longest-match-first pieces of one word; the whole word is [UNK] when a part matches
    /// nothing. `utf8` and `offsets` are reused buffers: the word's bytes and where each scalar starts.
    private func append(_ word: [Unicode.Scalar], to ids: inout [Int32], utf8: inout [UInt8], offsets: inout [Int]) {
        guard word.count <= Self.maxWordCharacters else {
            ids.append(Self.unknownID)
            return
        }
        utf8.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        for scalar in word {
            offsets.append(utf8.count)
            utf8.append(contentsOf: UTF8.encode(scalar)!)
        }
        offsets.append(utf8.count)
        let mark = ids.count
        utf8.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < word.count {
                var end = word.count
                var found: Int32?
                while end > start {
                    let key = UnsafeBufferPointer(rebasing: bytes[offsets[start]..<offsets[end]])
                    found = pieces.id(of: key, continuation: start > 0)
                    if found != nil { break }
                    end -= 1
                }
                guard let id = found else {
                    ids.removeLast(ids.count - mark)
                    ids.append(Self.unknownID)
                    return
                }
                ids.append(id)
                start = end
            }
        }
    }
}
