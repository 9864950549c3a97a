import Foundation
import SkillEmbedding
import Testing

@Suite(.enabled(if: modelPresent, "\(modelAbsent)")) struct VectorTests {
    /// The reference model's vectors (sentence-transformers, fp32 PyTorch) for fixed sentences.
    @Test(arguments: Reference.shared.vectors) func vectorsMatchTheReference(_ reference: Reference.Vector) throws {
        let encoder = try #require(sharedEncoder)
        let vector = try #require(encoder.embed([reference.text], maxTokens: reference.maxTokens).first)
        #expect(vector.count == encoder.dimension)
        #expect(cosine(vector, reference.vector) >= 0.999)
    }

    @Test func aBatchGivesWhatOneByOneGives() throws {
        let encoder = try #require(sharedEncoder)
        let texts = Reference.shared.vectors.map(\.text)
        let batch = encoder.embed(texts, maxTokens: 128)
        #expect(batch.count == texts.count)
        for (text, vector) in zip(texts, batch) {
            let alone = try #require(encoder.embed([text], maxTokens: 128).first)
            #expect(cosine(alone, vector) > 0.999_99)
        }
    }

    @Test func vectorsAreUnitLength() throws {
        let encoder = try #require(sharedEncoder)
        for vector in encoder.embed(["a", "", "Use @Observable"], maxTokens: 64) {
            let norm = vector.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot()
            #expect(abs(norm - 1) < 1e-5)
        }
    }

    @Test func anEmptyListGivesNoVectors() throws {
        let encoder = try #require(sharedEncoder)
        #expect(encoder.embed([], maxTokens: 128).isEmpty)
    }

    @Test func theModelDescribesItself() throws {
        let encoder = try #require(sharedEncoder)
        #expect(encoder.dimension == 384)
        #expect(encoder.modelName == "all-MiniLM-L6-v2")
    }

    /// Several threads embedding at once get exactly the vectors one thread gets.
    @Test func concurrentCallsGiveIdenticalVectors() async throws {
        let encoder = try #require(sharedEncoder)
        let texts = Reference.shared.vectors.map(\.text) + Reference.shared.tokens.map(\.text)
        let expected = encoder.embed(texts, maxTokens: 64)
        let results = await withTaskGroup(of: [[Float]].self) { group in
            for _ in 0..<6 { group.addTask { encoder.embed(texts, maxTokens: 64) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 6)
        for result in results { #expect(result == expected) }
    }
}
