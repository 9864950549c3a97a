import Foundation
import SkillEmbedding
import Testing

struct ModelFileTests {
    @Test func aMissingFileSaysToRunSetup() throws {
        let url = URL(fileURLWithPath: "/nonexistent/\(SentenceEncoder.fileName)")
        let error = #expect(throws: EmbeddingError.self) { try SentenceEncoder(contentsOf: url) }
        #expect(error == .missingModel(path: url.path))
        #expect(error?.localizedDescription.contains("run scripts/setup") == true)
    }

    @Test func garbageIsNotAModel() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(SentenceEncoder.fileName)
        try Data(String(repeating: "not a model at all ", count: 100).utf8).write(to: url)
        let error = #expect(throws: EmbeddingError.self) { try SentenceEncoder(contentsOf: url) }
        guard case .unsupportedModel = error else {
            Issue.record("expected unsupportedModel, got \(String(describing: error))")
            return
        }
        #expect(error?.localizedDescription.contains("run scripts/setup") == true)
    }

    @Test func anEmptyOrTinyFileIsTruncated() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(SentenceEncoder.fileName)
        for bytes in [Data(), Data("SKILLEMB".utf8)] {
            try bytes.write(to: url)
            let error = #expect(throws: EmbeddingError.self) { try SentenceEncoder(contentsOf: url) }
            guard case .truncatedModel = error else {
                Issue.record("expected truncatedModel, got \(String(describing: error))")
                continue
            }
            #expect(error?.localizedDescription.contains("run scripts/setup") == true)
        }
    }

    @Test func anotherVersionIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(SentenceEncoder.fileName)
        var bytes = Data("SKILLEMB".utf8)
        bytes.append(contentsOf: [2, 0, 0, 0, 2, 0, 0, 0])
        bytes.append(contentsOf: Array("{}".utf8))
        try bytes.write(to: url)
        let error = #expect(throws: EmbeddingError.self) { try SentenceEncoder(contentsOf: url) }
        #expect(error?.localizedDescription.contains("format version 2") == true)
    }

    /// The real model file cut short, as an interrupted copy leaves it.
    @Test(.enabled(if: modelPresent, "\(modelAbsent)")) func aTruncatedModelSaysSo() throws {
        let source = try #require(modelURL)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(SentenceEncoder.fileName)
        let whole = try Data(contentsOf: source, options: .alwaysMapped)
        for length in [whole.count / 2, whole.count - 1] {
            try whole.prefix(length).write(to: url)
            let error = #expect(throws: EmbeddingError.self) { try SentenceEncoder(contentsOf: url) }
            #expect(error == .truncatedModel(path: url.path, size: length, expected: whole.count))
        }
        // Cut inside the header: its own length is all there is to go by.
        try whole.prefix(100).write(to: url)
        let error = #expect(throws: EmbeddingError.self) { try SentenceEncoder(contentsOf: url) }
        guard case .truncatedModel(_, 100, _) = error else {
            Issue.record("expected truncatedModel, got \(String(describing: error))")
            return
        }
    }
}
