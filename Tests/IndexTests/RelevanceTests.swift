import Foundation
import TestSupport
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

    /// The rank (1-10) of each query's first hit, nil without one: a result is a hit when its
    /// file is a judged one and its first line lies inside the judged section.
    static func firstHits(_ set: String) throws -> [Int?] {
        let index = try #require(Self.index)
        let queries = try JSONDecoder().decode([Query].self, from: Data(contentsOf: file(set)))
        return try queries.map { query in
            let results = try index.search(query.query, limit: 10).results
            return results.firstIndex { r in
                query.judgements.contains { $0.path == r.source.path && ($0.line...$0.end).contains(r.source.line) }
            }.map { $0 + 1 }
        }
    }

    // questions.json's floor went from 0.76 to 0.75 when typo correction stopped replacing words
    // spelt as meant: n21 had owed its first place to "talking" searched as "taking" (0.770 → 0.757).
    @Test(
        .enabled(if: available, "needs ../shared/corpus/questions.json, absent beside this checkout"),
        arguments: [("relevance", 0.90), ("questions", 0.75), ("heldout-local", 0.70)])
    func meanReciprocalRankAtTen(set: String, floor: Double) throws {
        let hits = try Self.firstHits(set)
        let mrr = hits.map { $0.map { 1 / Double($0) } ?? 0 }.reduce(0, +) / Double(hits.count)
        #expect(mrr >= floor, "\(set).json MRR@10 \(mrr)")
    }

    /// The share of queries answered in the first five (issue #9's aim for questions: 0.90).
    @Test(
        .enabled(if: available, "needs ../shared/corpus/questions.json, absent beside this checkout"),
        arguments: [("relevance", 0.95), ("questions", 0.90)])
    func successAtFive(set: String, floor: Double) throws {
        let hits = try Self.firstHits(set)
        let share = Double(hits.filter { ($0 ?? 11) <= 5 }.count) / Double(hits.count)
        #expect(share >= floor, "\(set).json success@5 \(share)")
    }

    @Test(.enabled(if: available, "needs ../shared/corpus/questions.json, absent beside this checkout")) func theIssuesOwnExample() throws {
        // The testing-swift skill's entries come first.
        let testing = try #require(Self.index).search("swift testing expect", limit: 3).results
        #expect(!testing.isEmpty)
        #expect(testing.allSatisfy { $0.skill == "testing-swift" })
    }
}
