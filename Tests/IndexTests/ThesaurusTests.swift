import Testing

@testable import SkillIndex

/// The thesaurus: a word, or an inflection of it, also matches the other words of its group.
@Suite struct ThesaurusTests {
    @Test func inflectedWordsFindTheirGroup() {
        // Not "freeze": FTS5's stems already match it.
        #expect(Thesaurus.alternatives(of: "freezes") == ["frozen", "hang", "unresponsive"])
        #expect(Thesaurus.alternatives(of: "freezing") == ["frozen", "hang", "unresponsive"])
        #expect(Thesaurus.alternatives(of: "mocked") == ["fake", "stub"])
        #expect(Thesaurus.alternatives(of: "fake") == ["mock", "stub"])
        #expect(Thesaurus.alternatives(of: "flaky") == ["intermittent", "nondeterministic"])
        #expect(Thesaurus.alternatives(of: "folders") == ["directory"])
        #expect(Thesaurus.alternatives(of: "directories") == ["folder"])
    }

    @Test func wordsOfTwoSensesAndOtherWordsHaveNone() {
        // "image" is also a container image, so photos are not images here.
        #expect(Thesaurus.alternatives(of: "image") == [])
        #expect(Thesaurus.alternatives(of: "photo") == [])
        #expect(Thesaurus.alternatives(of: "view") == [])
    }

    @Test func inflections() {
        #expect(Thesaurus.inflections(of: "freeze") == ["freeze", "freezes", "freezees", "freezed", "freezing"])
        #expect(
            Thesaurus.inflections(of: "directory") == [
                "directory", "directorys", "directoryes", "directoryed", "directorying", "directories", "directoried",
            ])
    }
}
