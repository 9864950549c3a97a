import Foundation
import SkillIndex
import SkillParser
import TestSupport
import Testing

/// The searches a SwiftUI developer types, over the bundled skills: the section that answers
/// each must come first, and the named ones must be in the top five
/// (Fixtures/bundled-queries.json).
@Suite struct BundledSearchTests {
    struct Expected: Decodable, Sendable {
        struct Place: Decodable, Sendable, CustomStringConvertible {
            var path: String
            var heading: String
            var description: String { "\(path) › \(heading)" }
        }

        var query: String
        var first: Place
        var top5: [Place]
    }

    static let queries: [Expected] = {
        let url = packageRoot.appendingPathComponent("Tests/SkillsTests/Fixtures/bundled-queries.json")
        return (try? JSONDecoder().decode([Expected].self, from: Data(contentsOf: url))) ?? []
    }()

    /// One index of skills/ for all queries, built once in a temporary folder.
    static let index: SkillIndex? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bundled-search-\(UUID().uuidString)")
        let index = SkillIndex(roots: [BundledSkillsTests.skills], indexURL: folder.appendingPathComponent("index.sqlite"))
        return (try? index.refresh()) == nil ? nil : index
    }()

    /// Whether a result stands for the section `place`: the section itself or an entry inside it.
    static func matches(_ result: SearchResult, _ place: Expected.Place) -> Bool {
        result.source.path == place.path && (result.title == place.heading || result.breadcrumb.last == place.heading)
    }

    @Test func sixteenQueriesAreJudged() {
        #expect(Self.queries.count == 16)
    }

    @Test(arguments: queries.map(\.query))
    func theAnswerComesFirst(_ query: String) throws {
        let expected = try #require(Self.queries.first { $0.query == query })
        let results = try #require(Self.index).search(query, limit: 5).results
        let first = try #require(results.first)
        #expect(Self.matches(first, expected.first), "first was \(first.source.path) › \(first.title)")
        for place in expected.top5 {
            #expect(results.contains { Self.matches($0, place) }, "\(place) is not in the top five")
        }
    }
}
