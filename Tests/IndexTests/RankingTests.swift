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

    /// A skill written with prompt tags instead of headings is searched section by section.
    @Test func promptTagSectionsAreResults() throws {
        try box.write(
            """
            ---
            name: check-back
            description: Keeps track of background runs. Use when a turn ends with work still running.
            ---

            <set_a_wake>
            Before ending a turn that leaves a run pending, set a wake for when it should be done.
            </set_a_wake>

            <choose_the_mechanism>
            Use a one-shot cron by default; pin the minute off the hour.
            </choose_the_mechanism>

            """, to: "check-back/SKILL.md")
        try index.refresh()
        let results = try index.search("one-shot cron minute").results
        #expect(results.first?.id == "check-back/SKILL#choose-the-mechanism")
        #expect(results.first?.title == "Choose the mechanism")
        #expect(results.first?.source.line == 10)
        #expect(results.first?.source.endLine == 11)
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
        // A word of four letters is corrected only by swapping two neighbours back.
        #expect(try index.search("veiw").corrections == ["veiw": "view"])
        #expect(try index.search("vies").corrections == [:])
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
        let navigation = try index.search("skill:navigation view").results
        #expect(!navigation.isEmpty)
        #expect(navigation.allSatisfy { $0.skill == "navigation" })
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

    @Test(arguments: [
        "foo-bar AND (", "\"", "*", "NEAR(", String(repeating: "ab(\" ", count: 2_000), "kind:", "-x", "a OR", "col:x", "'", "^",
    ])
    func hostileQueriesNeverFail(_ text: String) throws {
        _ = try index.search(text)
    }
}

/// The `~2` of a skill's second name is not the `~KIND-N` of an entry inside a section.
struct EntryPlaceTests {
    @Test func aSecondNameIsNotAPartOfASection() {
        #expect(EntryPlace.section(of: "kit/SKILL#a/b~example-2") == "kit/SKILL#a/b")
        #expect(EntryPlace.section(of: "kit/SKILL~anti-pattern-1") == "kit/SKILL")
        #expect(EntryPlace.section(of: "kit~2/SKILL#a/b") == "kit~2/SKILL#a/b")
        #expect(EntryPlace.section(of: "kit~2/SKILL#a/b~table-1") == "kit~2/SKILL#a/b")
        #expect(EntryPlace.section(of: "kit~2") == "kit~2")
        #expect(EntryPlace.section(of: "my-kit~2/SKILL#brass-lanterns") == "my-kit~2/SKILL#brass-lanterns")
        #expect(EntryPlace.isPartOfSection("kit~2/SKILL#a~pattern-3"))
        #expect(!EntryPlace.isPartOfSection("kit~2/SKILL#a"))
    }

    /// Two sections of a skill indexed as `NAME~2` are two results, not one place.
    @Test func twoSectionsOfASecondNameAreTwoResults() throws {
        let box = try Sandbox(fixtures: nil)
        for (folder, when) in [("a/kit", "monthly"), ("b/kit", "weekly")] {
            try box.write(
                """
                ---
                name: kit
                description: Lanterns. Use for lanterns.
                ---
                # Kit

                ## Brass lanterns
                Polish brass lanterns \(when).

                ## Paper lanterns
                Keep paper lanterns dry \(when).

                """, to: "\(folder)/SKILL.md")
        }
        let index = box.index()
        try index.refresh()
        let ids = try index.search("lanterns", limit: 10).results.map(\.id).filter { $0.hasPrefix("kit~2/") }
        #expect(ids.sorted() == ["kit~2/SKILL#kit/brass-lanterns", "kit~2/SKILL#kit/paper-lanterns"])
    }
}
