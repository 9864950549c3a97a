import Foundation
import SkillParser
import Testing

@testable import SkillIndex

/// Search for questions asked in one's own words: soft retrieval, routing sections below
/// content, and copies of one entry as one result.
@Suite struct QuestionSearchTests {
    static let skill = """
        ---
        name: image-lists
        description: Smooth lists of images in an iOS app. Use when a list scrolls slowly or images load again.
        ---
        # Image Lists

        ## When to Use This Skill
        Use this skill when a list of images scrolls slowly, when scrolling stutters, or when the app
        downloads the same image again.

        ## Overview
        Why a list of images scrolls slowly: decoding on the main thread, no cache, images larger than
        their rows.

        ## Decode images off the main thread
        A list scrolls slowly when each row decodes its image on the main thread. Decode in a background
        task, keep the decoded image in a memory cache keyed by its URL, and the list scrolls smoothly.

        ## Glossary
        decode: turn bytes into pixels. thumbnails: small images. main thread: where the UI runs.
        scrolling: moving a list.

        """

    static let decoding = """
        # Decoding

        ## Downsampling
        Downsample a large photo to the size of its row before showing it: a 12-megapixel photo costs
        48 MB decoded, a row-sized one a few hundred kilobytes.

        """

    /// A sandbox with `image-lists` in the first root.
    static func sandbox() throws -> Sandbox {
        let box = try Sandbox(fixtures: nil)
        try box.write(skill, to: "image-lists/SKILL.md")
        try box.write(decoding, to: "image-lists/references/decoding.md")
        return box
    }

    @Test func contentRanksAboveRoutingSectionsThatNameItsTopic() throws {
        let box = try Self.sandbox()
        let index = box.index()
        try index.refresh()
        let results = try index.search("why does my list of images scroll slowly").results
        #expect(results.first?.title == "Decode images off the main thread")
        let titles = results.map(\.title)
        let content = try #require(titles.firstIndex(of: "Decode images off the main thread"))
        let routing = try #require(titles.firstIndex(of: "When to Use This Skill"))
        let overview = try #require(titles.firstIndex(of: "Overview"))
        #expect(content < routing && content < overview)
        // Still findable when asked for by name.
        #expect(try index.search("\"when to use this skill\"").results.first?.title == "When to Use This Skill")
    }

    @Test func routingRoleIsStoredFromTheParser() throws {
        let box = try Self.sandbox()
        let index = box.index()
        try index.refresh()
        let role = { (id: String) in try index.entry(id: "image-lists/\(id)")?.role }
        #expect(try role("SKILL#image-lists/when-to-use-this-skill") == .routing)
        #expect(try role("SKILL#image-lists/overview") == .routing)
        #expect(try role("SKILL#image-lists/decode-images-off-the-main-thread") == .content)
        #expect(try role("references/decoding#decoding/downsampling") == .content)
    }

    /// A skill's spec and its evaluation cases hold its topic words too; the section that answers
    /// comes first, and they stay findable.
    @Test func contentRanksAboveDocumentsAboutTheSkill() throws {
        let box = try Sandbox()
        try box.write(Self.skill, to: "image-lists/SKILL.md")
        try box.write(
            "# Image Lists Spec\n\n## Scope\nThe skill answers why a list of images scrolls slowly: decoding on the main thread, no cache.\n",
            to: "image-lists/SPEC.md")
        try box.write(
            "# Cases\n\n## Slow list\nA list of images scrolls slowly; the answer says to decode off the main thread.\n",
            to: "image-lists/evals/cases.md")
        let index = box.index()
        try index.refresh()
        let role = { (id: String) in try index.entry(id: "image-lists/\(id)")?.role }
        #expect(try role("SPEC#image-lists-spec/scope") == .about)
        #expect(try role("evals/cases#cases/slow-list") == .about)
        let titles = try index.search("why does my list of images scroll slowly").results.map(\.title)
        let content = try #require(titles.firstIndex(of: "Decode images off the main thread"))
        let spec = try #require(titles.firstIndex(of: "Scope"))
        let cases = try #require(titles.firstIndex(of: "Slow list"))
        #expect(content < spec && content < cases)
        #expect(try index.search("spec scope").results.first?.title == "Scope")
    }

    /// Everyday words match the skill's words ("fake" a stub, "freezes" a hang): every word of
    /// these queries is held by the section, through its thesaurus group.
    @Test func everydayWordsFindTheSkillsWords() throws {
        let box = try Sandbox()
        try box.write(
            """
            ---
            name: test-doubles
            description: Test code that talks to servers.
            ---
            # Test doubles

            ## Stub the network client
            Give the view model a protocol and, in tests, a stub that returns canned responses.

            ## Find a hang
            Record a trace while the app is unresponsive; the longest run on the main thread is the cause.

            """, to: "test-doubles/SKILL.md")
        let index = box.index()
        try index.refresh()
        let fake = try index.search("fake network client")
        #expect(fake.results.first?.title == "Stub the network client")
        #expect(!fake.partial)
        let freezes = try index.search("app freezes culprit")
        #expect(freezes.results.first?.title == "Find a hang")
        #expect(!freezes.partial)
    }

    @Test func aQuestionNeedNotMatchEveryWord() throws {
        let box = try Self.sandbox()
        let index = box.index()
        try index.refresh()
        // Only the glossary holds every word; the section that answers lacks "thumbnails".
        let found = try index.search("is it ok to decode thumbnails on the main thread while scrolling the list")
        #expect(found.results.count > 1)
        #expect(found.results.prefix(2).contains { $0.title == "Decode images off the main thread" })
        #expect(!found.partial)
        let partial = try index.search("decode thumbnails in a background task with a memory cache")
        #expect(partial.partial)
        #expect(partial.results.first?.title == "Decode images off the main thread")
        #expect(partial.notes == ["(no entry holds every word of the query; these match the most of it)"])
    }

    @Test func copiesOfAnEntryAreOneResultWithTheirOtherPlaces() throws {
        let box = try Self.sandbox()
        // The same skill in a second root (a Claude copy and a Codex copy), and the same
        // document copied byte for byte into another skill of the first root.
        let second = box.folder.appendingPathComponent("second", isDirectory: true)
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: box.skills.appendingPathComponent("image-lists"), to: second.appendingPathComponent("image-lists"))
        try Data((Self.skill + "Edited in this copy.\n").utf8).write(to: second.appendingPathComponent("image-lists/SKILL.md"))
        try box.write("---\nname: photo-grid\ndescription: Grids of photos.\n---\n# Photo Grid\n", to: "photo-grid/SKILL.md")
        try box.write(Self.decoding, to: "photo-grid/references/decoding.md")
        let index = SkillIndex(roots: [box.skills, second], indexURL: box.indexURL)
        try index.refresh()

        let results = try index.search("downsample photo").results
        #expect(results.filter { $0.title == "Downsampling" }.count == 1)
        let hit = try #require(results.first)
        #expect(hit.title == "Downsampling")
        let others = try #require(hit.alsoAt)
        let root = { (folder: URL, path: String) in folder.appendingPathComponent(path).path }
        #expect(
            Set([root(box.skills, hit.source.path)] + others.map(\.absolutePath)) == [
                root(box.skills, "image-lists/references/decoding.md"),
                root(box.skills, "photo-grid/references/decoding.md"),
                root(second, "image-lists/references/decoding.md"),
            ])
        #expect(others.allSatisfy { $0.source.line == hit.source.line })
        #expect(
            Set([hit.id] + others.map(\.id)) == [
                "image-lists/references/decoding#decoding/downsampling", "photo-grid/references/decoding#decoding/downsampling",
            ])
        // An entry in one place only (the second root's SKILL.md was edited) has no `alsoAt`.
        #expect(try index.search("decode background task").results.first?.alsoAt == nil)
    }

    @Test func otherFormsOfAWordFindTheDocumentsWords() throws {
        let box = try Sandbox(fixtures: nil)
        try box.write(
            """
            ---
            name: app-start
            description: How an app starts.
            ---
            # Starting

            ## Keep the launch short
            Defer work until after the first frame: a launch that loads every store shows a blank screen.

            ## Launch arguments
            Pass launch arguments to the scheme to test a launch in another language.

            ## Relaunch after a crash
            When the app is relaunched after a crash, restore the last screen.

            """, to: "app-start/SKILL.md")
        try box.write(
            """
            # Splash

            ## Brand colors
            Use the brand's hex colors on the splash screen.

            ## A quick splash
            Describe the splash in the storyboard, not in code.

            ## Filled shapes
            Shapes are filled with the accent color.

            """, to: "app-start/splash.md")
        let index = box.index()
        try index.refresh()
        // "relaunch" is in one entry, "launch" in two: both match, the asker's word first.
        let titles = try index.search("relaunch").results.map(\.title)
        #expect(titles.first == "Relaunch after a crash")
        #expect(Set(titles.dropFirst()) == ["Keep the launch short", "Launch arguments"])
        // A base no more common than the word is not added: "restore" and "store" are in one
        // entry each, so "restore" does not find the entry that says "store".
        #expect(try index.search("restore").results.map(\.title) == ["Relaunch after a crash"])
        // Porter stems keep "colours" and "colors", "quickly" and "quick", "description" and
        // "describe" apart: each form the index holds is matched too.
        #expect(try index.search("colours").results.map(\.title) == ["Brand colors", "Filled shapes"])
        #expect(try index.search("quickly").results.map(\.title) == ["A quick splash"])
        #expect(try index.search("description").results.map(\.title) == ["A quick splash"])
        // No form is made that would change the word ("filled" is not "filed").
        #expect(try index.search("filled").results.map(\.title) == ["Filled shapes"])
    }

    @Test func aQuestionFavoursTheSkillItsWordsDescribe() throws {
        let box = try Sandbox(fixtures: nil)
        // The same advice in two skills, word for word but one word; only one skill is about Slack.
        for (name, description, size) in [
            ("animated-stickers", "Animated stickers for a chat game.", "smaller"), ("gif-kit", "Animated emoji for Slack.", "narrower"),
        ] {
            try box.write(
                """
                ---
                name: \(name)
                description: \(description)
                ---
                # Files

                ## Shrink animated files
                Fewer frames, fewer colours and a \(size) canvas make an animated emoji file lighter.

                """, to: "\(name)/SKILL.md")
        }
        try box.index().refresh()
        let question = "my animated slack emoji file is too heavy, how do I shrink it"
        let search = { (skillMatch: Double) in
            var searcher = Searcher(db: try Database(path: box.indexURL.path, readOnly: true))
            searcher.ranking.skillMatch = skillMatch
            return try searcher.search(question, kind: nil, skill: nil, limit: 10).results
                .filter { $0.title == "Shrink animated files" }.map(\.skill)
        }
        #expect(try search(Searcher.Ranking().skillMatch) == ["gif-kit", "animated-stickers"])
        // Without the skill's description, the section alone ranks the other copy first.
        #expect(try search(0) == ["animated-stickers", "gif-kit"])
    }

    /// In a question, a word written with punctuation (`sleep(50)`) needs its parts, not as
    /// neighbours: the section that says "sleep … 50" ranks first. In a keyword query it stays a
    /// phrase.
    @Test func aQuestionsCompoundNeedsItsPartsInAnyOrder() throws {
        let box = try Sandbox(fixtures: nil)
        try box.write(
            """
            ---
            name: flaky-tests
            description: Tests.
            ---
            # Tests

            ## Waiting
            Tests that sleep for 50 milliseconds fail randomly on a busy machine: wait for the
            condition itself.

            ## Checking state
            Tests fail when an assertion runs before the state it checks.

            """, to: "flaky-tests/SKILL.md")
        let index = box.index()
        try index.refresh()
        let question = try index.search("my tests fail randomly with a sleep(50) before the assertion").results
        #expect(question.first?.title == "Waiting")
        #expect(try index.search("sleep(50)").results.isEmpty)
        #expect(Searcher.expression(.compound("sleep 50"), inQuestion: true) == #"("sleep" AND "50")"#)
        #expect(Searcher.expression(.compound("sleep 50")) == #""sleep 50""#)
    }
}
