import SkillEmbedding
import Testing

@Suite(.enabled(if: modelPresent, "\(modelAbsent)")) struct TokenizerTests {
    /// The reference tokenizer's ids (Hugging Face tokenizers over the model's tokenizer.json) for
    /// punctuation, accents, CJK, emoji, code, control characters, long words and truncation.
    @Test(arguments: Reference.shared.tokens) func idsEqualTheReference(_ reference: Reference.Tokens) throws {
        let encoder = try #require(sharedEncoder)
        #expect(encoder.tokenIDs(reference.text, maxTokens: reference.maxTokens) == reference.ids)
    }

    @Test func anEmptyTextIsClassAndSeparator() throws {
        let encoder = try #require(sharedEncoder)
        #expect(encoder.tokenIDs("", maxTokens: 128) == [101, 102])
        #expect(encoder.tokenIDs("   \n\t", maxTokens: 128) == [101, 102])
    }

    @Test func truncationKeepsTheSeparatorAndTheLimit() throws {
        let encoder = try #require(sharedEncoder)
        let text = String(repeating: "word ", count: 1000)
        for limit in [2, 3, 16, 64, 128, 512] {
            let ids = encoder.tokenIDs(text, maxTokens: limit)
            #expect(ids.count == limit)
            #expect(ids.first == 101 && ids.last == 102)
        }
        #expect(encoder.tokenIDs(text, maxTokens: 10_000).count == 512, "never more than the model's positions")
    }
}
