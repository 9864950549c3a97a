import Foundation
import SkillParser
import Testing
@testable import SkillIndex

@Suite struct RankingTests {
    let box: Sandbox
    let index: SkillIndex

    init() throws {
        box = try Sandbox()
        index = box.index()
        try index.refresh()
    }

    @Test func titleMatchBeatsBodyMatch() throws {
        let results = try index.search("sheets").results
        #expect(results.first?.id == "navigation/SKILL#navigation/sheets")
        #expect(results.contains { $0.id == "navigation/references/deep-links#deep-links" })
    }

    @Test func antiPatternWithKindFilter() throws {
        let results = try index.search("kind:anti-pattern model view").results
        #expect(results.first?.id.hasPrefix("swiftui-state/SKILL#swiftui-state/anti-patterns/model-stored-in-a-plain-property") == true)
        #expect(results.allSatisfy { $0.kind == .antiPattern })
        #expect(try index.search("model view", kind: .antiPattern).results.map(\.id) == results.map(\.id))
    }

    @Test func symbolPrefersCodeThatUsesIt() throws {
        let results = try index.search("@Observable").results
        #expect(results.first?.id.hasPrefix("swiftui-state/SKILL#swiftui-state/view-models") == true)
    }

    @Test func typoStillFindsItsTarget() throws {
        let found = try index.search("paginaton")
        #expect(found.corrections == ["paginaton": "pagination"])
        #expect(found.results.first?.title == "Cursor pagination")
    }

    @Test func fallsBackToAnyWord() throws {
        let found = try index.search("sheets xylophonequartz")
        #expect(found.results.first?.id == "navigation/SKILL#navigation/sheets")
        let partial = try index.search("sheets pagination")
        #expect(partial.partial || !partial.results.isEmpty)
    }

    @Test func phraseAndPrefix() throws {
        #expect(try index.search(#""value-based destinations""#).results.first?.title == "NavigationStack basics")
        #expect(try index.search(#""destinations value-based""#).results.isEmpty)
        #expect(try index.search("paginat*").results.first?.title == "Cursor pagination")
    }

    @Test func skillAndLanguageFilters() throws {
        #expect(try index.search("skill:navigation view").results.allSatisfy { $0.skill == "navigation" })
        let swift = try index.search("lang:swift model").results
        #expect(!swift.isEmpty)
        #expect(swift.allSatisfy { $0.skill == "swiftui-state" })
        #expect(try index.search("kind:skill").results.map(\.id) == ["navigation", "swiftui-state"])
    }

    @Test func snippetMarksMatches() throws {
        let hit = try #require(try index.search("cursor").results.first)
        #expect(hit.snippet.contains("**cursor**"))
        #expect(hit.source.path == "navigation/references/deep-links.md")
        #expect(hit.source.line == 7)
    }

    @Test(arguments: ["foo-bar AND (", "\"", "*", "NEAR(", String(repeating: "ab(\" ", count: 2_000), "kind:", "-x", "a OR", "col:x", "'", "^"])
    func hostileQueriesNeverFail(_ text: String) throws {
        _ = try index.search(text)
    }
}
