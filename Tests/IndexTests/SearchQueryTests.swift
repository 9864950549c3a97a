import Foundation
import SkillParser
import Testing

@testable import SkillIndex

@Suite struct SearchQueryTests {
    @Test func freeWordsDropStopWords() {
        let q = SearchQuery(parsing: "How do I hide the dock icon?")
        #expect(q.terms == [.word("hide"), .word("dock"), .word("icon")])
    }

    @Test func onlyStopWordsAreKept() {
        #expect(SearchQuery(parsing: "how to").terms == [.word("how"), .word("to")])
    }

    @Test func phrasePrefixAndFilters() {
        let q = SearchQuery(parsing: #""view model" nav* kind:anti-pattern skill:swiftui-state lang:Swift"#)
        #expect(q.terms == [.phrase("view model"), .prefix("nav")])
        #expect(q.kinds == [.antiPattern])
        #expect(q.skills == ["swiftui-state"])
        #expect(q.languages == ["swift"])
    }

    @Test func kindAliases() {
        #expect(SearchQuery(parsing: "kind:antipattern x").kinds == [.antiPattern])
        #expect(SearchQuery(parsing: "kind:tree x").kinds == [.decisionTree])
    }

    @Test func swiftSymbols() {
        let q = SearchQuery(parsing: "@Observable #expect .task(id:)")
        #expect(q.symbols == ["@Observable", "#expect", ".task"])
        #expect(q.terms == [.word("observable"), .word("expect"), .compound("task id")])
    }

    @Test func hyphenatedWordIsACompound() {
        #expect(SearchQuery(parsing: "foo-bar").terms == [.compound("foo bar")])
    }

    @Test func apostrophesSplitWords() {
        #expect(SearchQuery(parsing: "why isn't my skill triggering").terms == [.word("skill"), .word("triggering")])
    }

    @Test func unknownKeyIsAWord() {
        #expect(SearchQuery(parsing: "http://example.com").terms == [.compound("http example com")])
    }

    @Test(arguments: ["foo-bar AND (", "\"", "*", "NEAR(", "\"unclosed phrase", "a:b", "kind:", ")))", "OR OR", "'", "-", "^foo", "col:x"])
    func hostileInputIsAQuery(_ text: String) {
        let q = SearchQuery(parsing: text)
        for term in q.terms {
            switch term {
            case .anyOf(let words), .either(let words):
                Issue.record("a parsed query has no expanded prefix or base word: \(words)")
            case .word(let w), .prefix(let w), .phrase(let w), .compound(let w):
                #expect(w.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " })
            }
        }
    }

    @Test func veryLongInputIsBounded() {
        let q = SearchQuery(parsing: String(repeating: "word ", count: 2_000))
        #expect(q.terms.count <= SearchQuery.maxTerms)
        let long = SearchQuery(parsing: String(repeating: "x", count: 10_000))
        #expect(long.terms == [.word(String(repeating: "x", count: SearchQuery.maxTermLength))])
    }

    @Test func expressionsAreQuoted() {
        #expect(Searcher.expression(.word("foo")) == #""foo""#)
        #expect(Searcher.expression(.prefix("nav")) == #""nav"*"#)
        #expect(Searcher.expression(.word("vm")) == #"("vm" OR "view model" OR "viewmodel")"#)
        // A developer's abbreviation matches its expansion, and the expansion its abbreviation.
        #expect(Searcher.expression(.word("tf")) == #"("tf" OR "terraform")"#)
        #expect(Searcher.expression(.word("credentials")) == #"("credentials" OR "creds")"#)
        #expect(Searcher.expression(.word("configuration")) == #"("configuration" OR "cfg" OR "config")"#)
        // Other forms of a word (word forms, the thesaurus) keep each one's abbreviations.
        #expect(
            Searcher.expression(.either(["localization", "translation"]))
                == #"("localization" OR "i18n" OR "l10n" OR "translation")"#)
        #expect(Searcher.expression(.either(["folder", "directory"])) == #"("folder" OR "directory" OR "dir")"#)
    }

    @Test func editDistance() {
        #expect(EditDistance.between(Array("paginaton"), Array("pagination"), limit: 2) == 1)
        #expect(EditDistance.between(Array("teh"), Array("the"), limit: 2) == 1)
        #expect(EditDistance.between(Array("abc"), Array("xyz"), limit: 1) == 2)
    }
}
