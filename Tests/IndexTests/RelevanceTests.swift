import Foundation
import Testing
@testable import SkillIndex

/// Ranking quality on the judged queries of ../shared/corpus/relevance.json.
@Suite(.serialized) struct RelevanceTests {
    struct Query: Decodable {
        struct Judgement: Decodable {
            var path: String
            var line: Int
            var end: Int
            var grade: Int
        }
        var id: String
        var query: String
        var judgements: [Judgement]
    }

    static let available = FileManager.default.fileExists(atPath: corpus.appendingPathComponent("relevance.json").path)

    @Test(.enabled(if: available, "needs ../shared/corpus/relevance.json, absent beside this checkout")) func meanReciprocalRankAtTen() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skill-relevance-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = SkillIndex(roots: [corpus], indexURL: folder.appendingPathComponent("index.sqlite"))
        try index.refresh()
        let queries = try JSONDecoder().decode([Query].self, from: Data(contentsOf: corpus.appendingPathComponent("relevance.json")))
        var total = 0.0
        for query in queries {
            let results = try index.search(query.query, limit: 10).results
            if let rank = results.firstIndex(where: { r in
                query.judgements.contains { $0.path == r.source.path && ($0.line...$0.end).contains(r.source.line) }
            }) {
                total += 1 / Double(rank + 1)
            }
        }
        let mrr = total / Double(queries.count)
        #expect(mrr >= 0.70, "MRR@10 \(mrr)")

        // The issue's own example: the testing-swift skill's entries come first.
        let testing = try index.search("swift testing expect", limit: 3).results
        #expect(testing.allSatisfy { $0.skill == "testing-swift" })
    }
}
