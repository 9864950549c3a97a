import Foundation
import SkillParser
import Testing

@testable import SkillIndex

extension Trait where Self == ConditionTrait {
    /// Skips a test that needs the sentence encoder's model when it is not set up.
    static var needsModel: Self {
        .enabled(
            if: IndexConfiguration.model() != nil,
            "needs the sentence encoder's model (model/all-MiniLM-L6-v2.skm, made by scripts/setup), absent in this checkout")
    }
}

/// The vector stage: the vector table, the shared vector cache, fusion, and search without a
/// model.
@Suite struct VectorStageTests {
    /// A skill whose one answer shares no word with the question asked of it, among sections on
    /// other matters.
    static let responsiveness = """
        ---
        name: app-performance
        description: Guidance for iOS apps.
        ---
        # App Performance

        ## Keep the interface responsive
        Move expensive work such as image decoding off the main thread, so that scrolling stays smooth.

        ## Connection pools
        Configure how many database connections the server keeps open, and the timeout for idle ones.

        ## Release notes
        Write what changed for users in each version, grouped into added, fixed and removed.

        """

    static let question = "choppy animation when browsing pictures"

    /// A sandbox holding `text` as `NAME/SKILL.md`, with its own vector cache.
    private func sandbox(_ text: String, name: String = "app-performance") throws -> Sandbox {
        let sandbox = try Sandbox(fixtures: nil)
        try sandbox.write(text, to: "\(name)/SKILL.md")
        return sandbox
    }

    private func index(_ sandbox: Sandbox, roots: [URL]? = nil, indexURL: URL? = nil, model: URL? = IndexConfiguration.model())
        -> SkillIndex
    {
        var configuration = IndexConfiguration(roots: roots ?? [sandbox.skills], indexURL: indexURL ?? sandbox.indexURL)
        configuration.modelURL = model
        configuration.vectorCacheFolder = sandbox.folder.appendingPathComponent("vectors")
        return SkillIndex(configuration: configuration)
    }

    @Test(.needsModel) func aQuestionSharingNoWordWithItsAnswerFindsItOnlyWithVectors() throws {
        let sandbox = try sandbox(Self.responsiveness)
        let index = index(sandbox)
        try index.refresh()
        let report = try index.embed()
        #expect(report.model == "all-MiniLM-L6-v2")
        #expect(report.entriesWithVectors == report.entriesToEmbed)
        #expect(report.entriesToEmbed == 5)
        #expect(try index.search(Self.question, lexical: true).results.isEmpty)
        let fused = try index.search(Self.question)
        #expect(fused.results.first?.title == "Keep the interface responsive")
    }

    @Test(.needsModel) func anEntryIsEmbeddedOnceForEveryIndexAndRebuild() throws {
        let sandbox = try sandbox(Self.responsiveness)
        let first = index(sandbox)
        try first.refresh()
        #expect(try first.embed().embedded == 5)
        // Unchanged: nothing to embed, nothing written.
        #expect(try first.embed().embedded == 0)
        // A full rebuild numbers the entries anew; their vectors come from the cache.
        try first.refresh(full: true)
        let rebuilt = try first.embed()
        #expect(rebuilt.embedded == 0)
        #expect(rebuilt.entriesWithVectors == 5)
        #expect(try first.search(Self.question).results.first?.title == "Keep the interface responsive")
        // A copy of the skill in another root, indexed by another index: the cache is shared.
        let copy = sandbox.folder.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: sandbox.skills, to: copy)
        let second = index(sandbox, roots: [copy], indexURL: sandbox.folder.appendingPathComponent("other.sqlite"))
        try second.refresh()
        #expect(try second.embed().embedded == 0)
        #expect(try second.search(Self.question).results.first?.title == "Keep the interface responsive")
    }

    @Test(.needsModel) func anEditedEntryIsEmbeddedAgainAndItsOldVectorIgnored() throws {
        let sandbox = try sandbox(Self.responsiveness)
        let index = index(sandbox)
        try index.refresh()
        try index.embed()
        try sandbox.write(
            Self.responsiveness.replacingOccurrences(
                of: "Move expensive work such as image decoding off the main thread, so that scrolling stays smooth.",
                with: "Rotate the signing keys every ninety days and store them in the vault."),
            to: "app-performance/SKILL.md")
        try index.refresh()
        // Before embedding, the changed entry's old vector no longer matches its content.
        #expect(try index.search(Self.question).results.first?.title != "Keep the interface responsive")
        #expect(try index.embed().embedded == 1)
    }

    @Test(.needsModel) func aBudgetDefersALargePass() throws {
        let sandbox = try sandbox(Self.responsiveness)
        let index = index(sandbox)
        try index.refresh()
        let report = try index.embed(budget: 2)
        #expect(report.embedded == 0)
        #expect(report.deferred == 5)
        #expect(report.entriesWithVectors == 0)
    }

    @Test func withoutAModelSearchIsLexicalAndDoctorSaysHowToGetOne() throws {
        let sandbox = try sandbox(Self.responsiveness)
        let index = index(sandbox, model: nil)
        try index.refresh()
        #expect(try index.embed() == EmbeddingReport())
        #expect(try index.semanticStatus() == .noModel)
        #expect(try index.search("database connections").results.map(\.title) == ["Connection pools"])
        let health = index.health(bundledSkills: nil)
        #expect(health.semantic.summary == IndexHealth.noModelAdvice)
        #expect(health.problems.isEmpty)
    }

    @Test func anUnreadableModelIsAProblemAndSearchStaysLexical() throws {
        let sandbox = try sandbox(Self.responsiveness)
        let garbage = sandbox.folder.appendingPathComponent("garbage.skm")
        try Data("not a model".utf8).write(to: garbage)
        let index = index(sandbox, model: garbage)
        try index.refresh()
        #expect(try index.search("database connections").results.map(\.title) == ["Connection pools"])
        guard case .unusable(let reason) = try index.semanticStatus() else {
            Issue.record("a garbage model file is not reported")
            return
        }
        #expect(reason.hasPrefix(garbage.path + ": "))
        let health = index.health(bundledSkills: nil)
        #expect(health.problems == ["the model " + reason])
    }

    @Test func aQueryWhoseWordsTheIndexLacksFindsNothing() throws {
        let sandbox = try sandbox(Self.responsiveness)
        let index = index(sandbox, model: nil)
        try index.refresh()
        // Neither word is near an indexed one: both are left out, and nothing is left to match
        // (it once listed every entry, as a query of filters alone does).
        #expect(try index.search("qwxzzy plughq").results.isEmpty)
        #expect(try index.search("qwxzzy plughq kind:section").results.isEmpty)
        #expect(try index.search("kind:section").results.count == 4)
    }

    @Test func aWordTheIndexHoldsInAnotherFormIsNotCorrected() throws {
        let sandbox = try sandbox(
            """
            ---
            name: state
            description: State in views.
            ---
            # State

            ## Reset on redraw
            A view's state is reset when its identity changes.

            ## Results
            Show results as they arrive.

            """, name: "state")
        let index = index(sandbox, model: nil)
        try index.refresh()
        let found = try index.search("my view keeps resetting its state when the parent redraws")
        #expect(found.corrections.isEmpty)
        #expect(found.results.first?.title == "Reset on redraw")
    }

    @Test(.needsModel) func aDictionaryWordIsNotCorrected() throws {
        let sandbox = try sandbox(
            """
            ---
            name: photos
            description: Photos in apps.
            ---
            # Photos

            ## Taking photos
            Ask for camera access before taking photos.

            """, name: "photos")
        let index = index(sandbox)
        try index.refresh()
        // "talking" is a word of the encoder's vocabulary: never "taking".
        let found = try index.search("talking", lexical: true)
        #expect(found.corrections.isEmpty)
        #expect(found.results.isEmpty)
        // A misspelt word still is.
        #expect(try index.search("camer access", lexical: true).corrections == ["camer": "camera"])
    }
}

/// The vector table file and fusion, without a model.
@Suite struct VectorTableTests {
    private func rows() -> [VectorTable.Row] {
        [
            VectorTable.Row(rowid: 7, hash: 0xA, vector: [1, 0, 0, 0, 0, 0, 0, 0, 0]),
            VectorTable.Row(rowid: 9, hash: 0xB, vector: [0.6, 0.8, 0, 0, 0, 0, 0, 0, 0]),
            VectorTable.Row(rowid: 3, hash: 0xC, vector: [0, 0, 1, 0, 0, 0, 0, 0, 0]),
        ]
    }

    @Test func aWrittenTableMapsBackAndRanksByCosine() throws {
        let sandbox = try Sandbox(fixtures: nil)
        let url = sandbox.folder.appendingPathComponent("index.sqlite.vectors")
        try VectorTable.write(rows(), dimension: 9, to: url)
        let table = try #require(VectorTable(contentsOf: url, dimension: 9))
        #expect(table.count == 3)
        #expect(table.holds(rows()))
        let near = table.nearest(to: [0.8, 0.6, 0, 0, 0, 0, 0, 0, 0], limit: 2, floor: 0.1)
        #expect(near.map(\.rowid) == [9, 7])
        #expect(near.map(\.hash) == [0xB, 0xA])
        #expect(abs(near[0].similarity - 0.96) < 1e-6)
        // Below the floor: none.
        #expect(table.nearest(to: [0, 0, 0, 1, 0, 0, 0, 0, 0], limit: 2, floor: 0.1).isEmpty)
    }

    @Test func aTruncatedOrForeignTableIsNotRead() throws {
        let sandbox = try Sandbox(fixtures: nil)
        let url = sandbox.folder.appendingPathComponent("index.sqlite.vectors")
        try VectorTable.write(rows(), dimension: 9, to: url)
        #expect(VectorTable(contentsOf: url, dimension: 384) == nil)
        let data = try Data(contentsOf: url)
        try data.dropLast(4).write(to: url)
        #expect(VectorTable(contentsOf: url, dimension: 9) == nil)
        try Data("SQLite format 3\0".utf8).write(to: url)
        #expect(VectorTable(contentsOf: url, dimension: 9) == nil)
    }

    @Test func fusionAddsSimilarityAboveTheFloorToTheLexicalShareAndKeepsTheLexicalEntryOfAPlace() throws {
        let db = try Database(path: ":memory:")
        defer { db.close() }
        var searcher = Searcher(db: db)
        searcher.ranking.vectorWeight = 0.5
        searcher.ranking.similarityFloor = 0.5
        func candidate(_ id: String, _ hash: String, _ score: Double) -> Searcher.Candidate {
            Searcher.Candidate(
                rowid: Int64(id.hashValue), id: id, kind: "section", title: id, keywords: "", role: .content, hash: hash, score: score)
        }
        let lexical = [candidate("s/SKILL#a", "1", 10), candidate("s/SKILL#b~example-1", "2", 8), candidate("s/SKILL#c", "3", 4)]
        // The vector list (similarities): b's section itself, a new place d, a copy of d elsewhere.
        let neighbours = [candidate("s/SKILL#b", "4", 0.9), candidate("s/SKILL#d", "5", 0.8), candidate("t/SKILL#d", "5", 0.8)]
        let fused = searcher.fuse(lexical, neighbours, limit: 10)
        // b: 0.8 + 0.5 × 0.8 = 1.2; a: 1; c: 0.4; d: 0.5 × 0.6 = 0.3.
        #expect(fused.map(\.id) == ["s/SKILL#b~example-1", "s/SKILL#a", "s/SKILL#c", "s/SKILL#d"])
        #expect(fused.map(\.score).map { ($0 * 1000).rounded() / 1000 } == [1.2, 1, 0.4, 0.3])
        #expect(fused[3].copies.map(\.id) == ["t/SKILL#d"])
        #expect(searcher.fuse(lexical, neighbours, limit: 2).count == 2)
        // Nothing lexical: the neighbours alone, by similarity.
        #expect(searcher.fuse([], neighbours, limit: 10).map(\.id) == ["s/SKILL#b", "s/SKILL#d"])
    }
}
