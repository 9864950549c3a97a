import Foundation
import Testing

@testable import SkillIndex

/// An any-word query scores a bounded number of rows: its rarest terms choose the candidates,
/// and the common terms still count in the candidates' scores (docs/search.md: Bounded work).
@Suite struct BoundedSearchTests {
    static let skill = """
        ---
        name: layouts
        description: Layouts.
        ---
        # Layouts

        ## Zephyr grids
        A zephyr grid keeps the view state of each cell in a layout.

        ## Quasar stacks
        A quasar stack lays out one view.

        ## View state
        Keep the view state in the layout's owner.

        ## State restoration
        Restore the view state when the app starts again.

        ## View identity
        A view with a stable identity keeps its state.

        """ + (1...10).map { "## Palette \($0)\nColour \($0) of the palette, in light and dark.\n\n" }.joined()

    /// The titles and scores of the results of `query` over the index, scoring at most `rows`
    /// rows; a query of more than `shortQuery` terms is a question.
    static func search(
        _ box: Sandbox, _ query: String = "zephyr quasar view state layout", rows: ClosedRange<Int>, shortQuery: Int = 4
    ) throws -> [String: Double] {
        let db = try Database(path: box.indexURL.path, readOnly: true)
        var searcher = Searcher(db: db)
        searcher.ranking.scoredRows = rows
        searcher.ranking.shortQuery = shortQuery
        let results = try searcher.search(query, kind: nil, skill: nil, limit: 10).results
        return Dictionary(uniqueKeysWithValues: results.map { ($0.title, $0.score) })
    }

    @Test func rareTermsChooseCandidatesAndCommonTermsStillScore() throws {
        let box = try Sandbox(fixtures: nil)
        try box.write(Self.skill, to: "layouts/SKILL.md")
        try box.index().refresh()

        let unbounded = try Self.search(box, rows: 1_000...5_000)
        // Two rows at most: "zephyr" and "quasar" (one entry each) choose the candidates.
        let bounded = try Self.search(box, rows: 2...2)
        #expect(Set(bounded.keys) == ["Zephyr grids", "Quasar stacks"])
        #expect(unbounded.keys.contains("View state"))
        // "view", "state" and "layout" (in a third of the entries) still count: the scores are
        // those of the whole OR.
        #expect(bounded["Zephyr grids"] == unbounded["Zephyr grids"])
        #expect(bounded["Quasar stacks"] == unbounded["Quasar stacks"])
        #expect(try #require(bounded["Zephyr grids"]) > bounded["Quasar stacks"] ?? 0)
    }

    /// A phrase among the rarest terms ("logged out", quoted), and an entry holding its words
    /// apart before one that holds a rare and a common term. In one FTS5 expression,
    /// `(rare NOT common) OR (common AND rare)`, FTS5 (SQLite 3.40 to 3.51) dropped hits of the
    /// later entry, which then ranked as if it held fewer words.
    @Test func aPhraseAmongTheRareTermsLeavesTheScoresWhole() throws {
        let box = try Sandbox(fixtures: nil)
        try box.write(
            """
            ---
            name: sessions
            description: Sessions.
            ---
            # Sessions

            ## Sign-in
            Users out of the app are logged users again.

            ## Session end
            Out of time, users see the end.

            """, to: "sessions/SKILL.md")
        try box.index().refresh()
        // A question of three terms. One row at most: "logged out" (no entry) and "end" (one)
        // choose the candidates; "users" is common.
        let bounded = try Self.search(box, #""logged out" users end"#, rows: 1...1, shortQuery: 1)
        let unbounded = try Self.search(box, #""logged out" users end"#, rows: 1_000...5_000, shortQuery: 1)
        #expect(Array(bounded.keys) == ["Session end"])
        #expect(bounded["Session end"] == unbounded["Session end"])
    }

    @Test func aQuestionAsksForAllWordsOnlyWhenSomeEntryHoldsThemAll() {
        #expect(Searcher.shareARow([[1, 3, 5], [2, 3], [3, 9]]))
        #expect(!Searcher.shareARow([[1, 3, 5], [2, 4], [3, 9]]))
        #expect(!Searcher.shareARow([[1, 2], []]))
        #expect(!Searcher.shareARow([]))
    }

    /// Soft search weighs each candidate by its skill's own entry: found through the partial index
    /// of those entries (one row per skill), not by reading every entry of the candidate's skill.
    @Test func aSkillsOwnEntryIsFoundByItsIndex() throws {
        let box = try Sandbox(fixtures: nil)
        try box.write(Self.skill, to: "layouts/SKILL.md")
        try box.index().refresh()
        let db = try Database(path: box.indexURL.path, readOnly: true)
        let plan = try db.query(
            "EXPLAIN QUERY PLAN SELECT e.rowid, s.rowid FROM entries e JOIN entries s ON s.skill = e.skill AND s.kind = 'skill' WHERE e.rowid IN (1, 2)"
        ) { $0.text(3) }
        #expect(plan.contains { $0.contains("USING INDEX entries_skill_entry") })
        #expect(try db.scalar("SELECT count(*) FROM entries INDEXED BY entries_skill_entry WHERE kind = 'skill'") == 1)
    }
}
