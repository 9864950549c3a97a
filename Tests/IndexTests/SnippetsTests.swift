import Foundation
import Testing

@testable import SkillIndex

/// A result's snippet: the text's excerpt when it has a match, else the text's opening lines, else
/// the code's excerpt.
@Suite struct SnippetsTests {
    @Test func makeChoosesTheTextsMatchThenItsOpeningThenTheCodesMatch() {
        #expect(Snippets.make(text: "a  **cursor**\nmoves", code: "", opening: "x") == "a **cursor** moves")
        #expect(Snippets.make(text: "no match", code: "", opening: "First line.\n\nSecond line.") == "First line. · Second line.")
        #expect(Snippets.make(text: "", code: "let **cursor** = 1", opening: "\n") == "let **cursor** = 1")
        #expect(Snippets.make(text: "", code: "let x = 1", opening: "") == "")
    }

    @Test func anEntryOfCodeAloneShowsItsMarkedCode() throws {
        let box = try Sandbox(fixtures: nil)
        try box.write(
            """
            ---
            name: cursors
            description: Cursors.
            ---
            # Cursors

            ## Moving
            Move the cursor with the arrow keys.

            ## Listing

            ```swift
            let zorblat = Cursor(position: 0)
            ```

            """, to: "cursors/SKILL.md")
        let index = box.index()
        try index.refresh()
        let results = try index.search("zorblat").results
        let hit = try #require(results.first)
        #expect(hit.snippet.contains("**zorblat**"))
        let moving = try #require(try index.search("arrow keys").results.first { $0.title == "Moving" })
        #expect(moving.snippet == "Move the cursor with the **arrow** **keys**.")
    }

    /// ``Snippets/excerpt(of:tokens:phrases:)`` for a MATCH expression over `text`.
    static func excerpt(_ text: String, _ expression: String, in db: Database) throws -> String {
        let phrases = try Snippets.phrases(of: expression).map {
            Snippets.Phrase(
                terms: try db.tokens(of: $0.text, tokenizer: Schema.tokenizer, query: true, prefix: $0.prefix).map(\.term),
                prefix: $0.prefix)
        }
        return Snippets.excerpt(of: text, tokens: try db.tokens(of: text, tokenizer: Schema.tokenizer), phrases: phrases)
    }

    @Test func theQuotedStringsOfAnExpressionAreItsPhrasesInOrder() {
        let phrases = Snippets.phrases(of: #"("vm" OR "view model") OR "don""t"* OR "a""#)
        #expect(phrases.map(\.text) == ["vm", "view model", #"don"t"#, "a"])
        #expect(phrases.map(\.prefix) == [false, false, true, false])
        #expect(Snippets.phrases(of: "").isEmpty)
    }

    @Test func excerptsMarkPhrasesPrefixesAndStemsAsFTS5Does() throws {
        let db = try Database(path: ":memory:")
        #expect(
            try Self.excerpt(
                "One. Two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen. The cursor moves with the arrow keys: press left to move the cursor back.",
                #""cursor" OR "arrow""#, in: db)
                == "…The **cursor** moves with the **arrow** keys: press left to move the **cursor** back.")
        // Overlapping instances ("view model" and "model") are one marked run.
        #expect(
            try Self.excerpt("Keep the view model small; a view model that grows is two view models.", #""view model" OR "model""#, in: db)
                == "Keep the **view model** small; a **view model** that grows is two **view models**.")
        #expect(
            try Self.excerpt("Naïve café: résumé the Navigation stack, then navigate back.", #""navig"* OR "cafe""#, in: db)
                == "Naïve **café**: résumé the **Navigation** stack, then **navigate** back.")
        #expect(try Self.excerpt("", #""cursor""#, in: db) == "")
        #expect(try Self.excerpt("Nothing here matches.", #""cursor""#, in: db) == "Nothing here matches.")
    }

    /// The same excerpts as FTS5's `snippet()` over a table of the same tokenizer, for texts with
    /// sentences, repeats, phrases at either end, longer than the window and with hundreds of
    /// instances.
    @Test func excerptsEqualFTS5sOwnSnippets() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE VIRTUAL TABLE t USING fts5(a, tokenize='\(Schema.tokenizer)')")
        let texts = [
            "State lives in the view. The view reads the state: when the state changes, the view is drawn again, and only the views that read it.",
            (1...40).map { "word\($0)" }.joined(separator: " ")
                + ". Then the main thread blocks: the main thread must never wait on the network.",
            "main thread " + String(repeating: "filler text goes here. ", count: 12) + "main",
            "Tests that really catch mistakes: mutate the code and check that a test fails.\n\n- one\n- two",
            "short",
            // Many instances (each window's are found by a binary search) and many sentences.
            String(repeating: "the view reads state. ", count: 300) + "main thread",
            String(repeating: "filler ", count: 50) + String(repeating: "state view main ", count: 200),
        ]
        let expressions = [
            #""state" OR "view""#, #""main thread" OR "main" OR "network""#, #""test"* OR "mistakes" OR "fail""#,
            #""word3" OR "word40" OR "then""#,
        ]
        for (i, text) in texts.enumerated() {
            try db.run("INSERT INTO t(rowid, a) VALUES (?, ?)", [.int(Int64(i + 1)), .text(text)])
        }
        for (i, text) in texts.enumerated() {
            for expression in expressions {
                let fts5 = try db.text(
                    "SELECT snippet(t, 0, '**', '**', '…', 16) FROM t WHERE t MATCH ? AND rowid = ?",
                    [.text(expression), .int(Int64(i + 1))])
                guard let fts5 else { continue }
                #expect(try Self.excerpt(text, expression, in: db) == fts5, "\(expression) in text \(i)")
            }
        }
    }
}
