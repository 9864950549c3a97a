import Testing

@testable import SkillIndex

/// The word forms a search adds beside the asker's word (each only when the index holds it).
@Suite struct WordFormsTests {
    @Test func basesDropAPrefix() {
        #expect(WordForms.bases(of: "relaunch") == ["launch"])
        #expect(WordForms.bases(of: "untested") == ["tested"])
        // Too short a base: "reuse" keeps its meaning only whole.
        #expect(WordForms.bases(of: "reuse") == [])
    }

    @Test func derivedFormsAndSpellings() {
        let cases: [(String, [String])] = [
            ("quickly", ["quick"]), ("easily", ["easy"]), ("reliably", ["reliable"]), ("weekly", ["week"]),
            ("ownership", ["owner"]), ("memberships", ["member"]), ("analysis", ["analyze"]), ("analyze", ["analysis"]),
            ("failures", ["fail"]),
            ("description", ["describe"]), ("subscriptions", ["subscribe"]), ("describe", ["description"]),
            ("decision", ["decide", "decid"]), ("extension", ["extende", "extend"]), ("decides", ["decision"]),
            ("includes", ["inclusion"]),
            ("colours", ["colors"]), ("behaviour", ["behavior"]), ("initialise", ["initialize"]),
            ("serialisation", ["serialization"]), ("analysed", ["analyzed"]), ("centre", ["center"]),
            ("licence", ["license"]), ("catalogue", ["catalog"]),
        ]
        for (word, forms) in cases {
            #expect(WordForms.variants(of: word) == forms, "\(word)")
        }
    }

    @Test func shortWordsAndOtherWordsHaveNone() {
        for word in ["only", "apply", "early", "daily", "hours", "this", "state", "cancelled", "x86_64", "café"] {
            #expect(WordForms.variants(of: word) == [], "\(word)")
        }
    }
}
