/// BERT's uncased WordPiece tokenizer over a model's vocabulary: the ids Hugging Face `tokenizers`
/// gives for all-MiniLM-L6-v2, with [CLS] first and [SEP] last.
struct WordPieceTokenizer: Sendable {
    static let paddingID: Int32 = 0
    static let unknownID: Int32 = 100
    static let classID: Int32 = 101
    static let separatorID: Int32 = 102
    /// A longer word is one [UNK], as in the reference (`max_input_chars_per_word`).
    static let maxWordCharacters = 100
    /// Pieces that start a word. Keyed by scalars, not `String`: Swift compares strings by canonical
    /// equivalence, the reference by bytes (a Hangul syllable must not match its decomposed jamo).
    private let initial: [[Unicode.Scalar]: Int32]
    /// Pieces that continue a word, keyed without their "##".
    private let continuing: [[Unicode.Scalar]: Int32]

    /// A tokenizer whose ids are the positions of `vocabulary`'s entries; of two equal entries the
    /// later wins, as in the reference's map.
    init(vocabulary: [String]) {
        var initial: [[Unicode.Scalar]: Int32] = [:]
        var continuing: [[Unicode.Scalar]: Int32] = [:]
        initial.reserveCapacity(vocabulary.count)
        for (id, piece) in vocabulary.enumerated() {
            // Scalars, not `hasPrefix`: in "##ि" the second "#" and the vowel sign are one Character.
            let scalars = Array(piece.unicodeScalars)
            if scalars.count > 2 && scalars[0] == "#" && scalars[1] == "#" {
                continuing[Array(scalars.dropFirst(2))] = Int32(id)
            } else {
                initial[scalars] = Int32(id)
            }
        }
        self.initial = initial
        self.continuing = continuing
    }

    /// The ids of `text`, truncated to `maxTokens` (at least 2) including [CLS] and [SEP].
    func tokenIDs(_ text: String, maxTokens: Int) -> [Int32] {
        let budget = max(maxTokens, 2) - 2
        var ids: [Int32] = [Self.classID]
        for word in BertNormalizer.words(text) {
            if ids.count - 1 >= budget { break }
            append(word, to: &ids)
        }
        if ids.count - 1 > budget { ids.removeLast(ids.count - 1 - budget) }
        ids.append(Self.separatorID)
        return ids
    }

    /// Greedy longest-match-first pieces of one word; the whole word is [UNK] when a part matches nothing.
    private func append(_ word: [Unicode.Scalar], to ids: inout [Int32]) {
        guard word.count <= Self.maxWordCharacters else {
            ids.append(Self.unknownID)
            return
        }
        let mark = ids.count
        var start = 0
        while start < word.count {
            var end = word.count
            var found: Int32?
            while end > start {
                found = (start == 0 ? initial : continuing)[Array(word[start..<end])]
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
