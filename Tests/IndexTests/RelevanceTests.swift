import Foundation
import Testing
@testable import SkillIndex

/// Ranking quality on the judged query sets of ../shared/corpus: `relevance.json` (keywords) and
/// `questions.json` (questions in the asker's own words), and the held-out questions over the same
/// corpus (Benchmarks/heldout/questions-local.json). The floors sit a little below what
/// the ranking reaches (docs/search.md), so that a change that costs ranking fails here.
@Suite(.serialized) struct RelevanceTests {
    struct Query: Decodable {
        struct Judgement: Decodable {
            var path: String
            var line: Int
            var end: Int
        }
        var query: String
        var judgements: [Judgement]
    }

    static let available = FileManager.default.fileExists(atPath: corpus.appendingPathComponent("questions.json").path)

    /// One index of the corpus for every test of the suite.
    static let index: SkillIndex? = {
        guard available else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skill-relevance-\(UUID().uuidString)")
        let index = SkillIndex(roots: [corpus], indexURL: folder.appendingPathComponent("index.sqlite"))
        return (try? index.refresh()) == nil ? nil : index
    }()

    /// The judged sets: the corpus's two, and the held-out questions over the same corpus that
    /// the project keeps (Benchmarks/heldout).
    static func file(_ set: String) -> URL {
        set == "heldout-local"
            ? packageRoot.appendingPathComponent("Benchmarks/heldout/questions-local.json")
            : corpus.appendingPathComponent("\(set).json")
    }

    /// MRR@10: a result is a hit when its file is a judged one and its first line lies inside
    /// the judged section.
    static func meanReciprocalRank(_ set: String) throws -> Double {
        let index = try #require(Self.index)
        let queries = try JSONDecoder().decode([Query].self, from: Data(contentsOf: file(set)))
        var total = 0.0
        for query in queries {
            let results = try index.search(query.query, limit: 10).results
            if let rank = results.firstIndex(where: { r in
                query.judgements.contains { $0.path == r.source.path && ($0.line...$0.end).contains(r.source.line) }
            }) {
                total += 1 / Double(rank + 1)
            }
        }
        return total / Double(queries.count)
    }

    @Test(.enabled(if: available, "needs ../shared/corpus/questions.json, absent beside this checkout"), arguments: [("relevance", 0.90), ("questions", 0.76), ("heldout-local", 0.67)])
    func meanReciprocalRankAtTen(set: String, floor: Double) throws {
        let mrr = try Self.meanReciprocalRank(set)
        #expect(mrr >= floor, "\(set).json MRR@10 \(mrr)")
    }

    @Test(.enabled(if: available, "needs ../shared/corpus/questions.json, absent beside this checkout")) func theIssuesOwnExample() throws {
        // The testing-swift skill's entries come first.
        let testing = try #require(Self.index).search("swift testing expect", limit: 3).results
        #expect(testing.allSatisfy { $0.skill == "testing-swift" })
    }
}
