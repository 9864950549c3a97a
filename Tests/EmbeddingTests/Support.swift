import Foundation
import SkillEmbedding
import TestSupport
import Testing

/// The model file: `SKILL_MODEL` when set, else the package's `model/` folder; `nil` when absent.
let modelURL: URL? = {
    if let path = ProcessInfo.processInfo.environment["SKILL_MODEL"], !path.isEmpty {
        return URL(fileURLWithPath: path)
    }
    let url = packageRoot.appendingPathComponent("model").appendingPathComponent(SentenceEncoder.fileName)
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
}()

/// The encoder over `modelURL`, opened once for all tests.
let sharedEncoder: SentenceEncoder? = modelURL.flatMap { try? SentenceEncoder(contentsOf: $0) }

let modelPresent = sharedEncoder != nil
let modelAbsent = "needs the model file (model/all-MiniLM-L6-v2.skm or SKILL_MODEL): run scripts/setup"

/// Tests/EmbeddingTests/Fixtures/reference.json, written by Benchmarks/experiments/reference-vectors.py.
struct Reference: Decodable {
    struct Tokens: Decodable, CustomTestStringConvertible {
        var text: String
        var maxTokens: Int
        var ids: [Int32]
        var testDescription: String { "\(text.prefix(40).debugDescription) (\(maxTokens))" }
    }
    struct Vector: Decodable, CustomTestStringConvertible {
        var text: String
        var maxTokens: Int
        var vector: [Float]
        var testDescription: String { "\(text.prefix(40).debugDescription) (\(maxTokens))" }
    }
    var tokens: [Tokens]
    var vectors: [Vector]

    static let shared: Reference = {
        let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("reference.json")
        return try! JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
    }()
}

/// The cosine of two vectors.
func cosine(_ a: [Float], _ b: [Float]) -> Double {
    var dot = 0.0
    var na = 0.0
    var nb = 0.0
    for (x, y) in zip(a, b) {
        dot += Double(x) * Double(y)
        na += Double(x) * Double(x)
        nb += Double(y) * Double(y)
    }
    return dot / (na.squareRoot() * nb.squareRoot())
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
