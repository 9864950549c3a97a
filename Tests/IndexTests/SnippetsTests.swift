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
        try box.write("""
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
}
