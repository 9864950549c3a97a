import Foundation
import SkillParser
import Testing

@testable import SkillIndex

/// The index keeps no copy of an entry: `entry(id:)` parses its document again, after checking
/// its hash; the typo vocabulary and the full-text index are kept by the build, and an
/// incremental build leaves them as a full build of the same files would.
@Suite struct LeanIndexTests {
    let document = "navigation/references/deep-links.md"

    @Test func everyEntryReadBackEqualsTheParsersOwn() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        var compared = 0
        for name in ["navigation", "swiftui-state"] {
            let skill = SkillLoader.load(folder: box.skills.appendingPathComponent(name), root: box.skills)
            for entry in skill.entries {
                #expect(try index.entry(id: entry.id) == entry)
                compared += 1
            }
        }
        #expect(compared == Int(try index.refresh().entryCount))
    }

    /// The headings of a result are stored only when its breadcrumb column and title do not give
    /// them (an entry inside a section, a heading holding " › "): every result's equal the Parser's.
    @Test func everyResultsHeadingsEqualTheParsersOwn() throws {
        let box = try Sandbox()
        try box.write(
            """
            ---
            name: crumbs
            description: Headings. Use for crumbs.
            ---
            # Crumbs

            ## Before › after
            Lanterns in a heading with the separator.

            ### Inner
            Lanterns below it.

            ```swift
            let lantern = Lantern()
            ```

            """, to: "crumbs/SKILL.md")
        let index = box.index()
        try index.refresh()
        var compared = 0
        for name in ["navigation", "swiftui-state", "crumbs"] {
            let entries = SkillLoader.load(folder: box.skills.appendingPathComponent(name), root: box.skills).entries
            let byID = Dictionary(entries.map { ($0.id, $0.breadcrumb) }, uniquingKeysWith: { a, _ in a })
            for result in try index.search("skill:\(name)", limit: 1_000).results {
                #expect(result.breadcrumb == byID[result.id], "\(result.id)")
                compared += 1
            }
        }
        #expect(compared == Int(try index.refresh().entryCount))
        let inner = try #require(try index.search("lanterns below").results.first)
        #expect(inner.breadcrumb == ["Crumbs", "Before › after", "Inner"])
    }

    @Test func anEntryOfAnEditedDocumentIsReadAfterARefresh() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        try box.write("# Deep links\n\nUniversal links need an apple-app-site-association file.\n", to: document)
        // Not refreshed in between: the hash differs, so the index refreshes and reads the new text.
        let entry = try #require(try index.entry(id: "navigation/references/deep-links#deep-links"))
        #expect(entry.text == "Universal links need an apple-app-site-association file.")
        #expect(try index.entry(id: "navigation/references/deep-links#cursor-pagination") == nil)
        #expect(try !index.isStale())
    }

    @Test func anEntryOfAVanishedDocumentIsNone() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        try FileManager.default.removeItem(at: box.skills.appendingPathComponent(document))
        #expect(try index.entry(id: "navigation/references/deep-links#deep-links") == nil)
        #expect(try index.search("pagination").results.isEmpty)
    }

    /// A document whose content differs from the index while its stamp (size, mtime and ctime)
    /// does not: a refresh cannot see it, so `entry(id:)` says what to do instead of guessing.
    @Test func aDocumentThatDiffersUnderTheSameStampIsAClearError() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        let file = box.skills.appendingPathComponent(document).path
        let db = try Database(path: box.indexURL.path)
        try db.run("UPDATE documents SET hash = '0' WHERE file = ?", [.text(file)])
        db.close()
        #expect(throws: IndexError.documentChanged(file)) {
            try index.entry(id: "navigation/references/deep-links#deep-links")
        }
        #expect(
            IndexError.documentChanged(file).errorDescription
                == "\(file) changed since the index was built, keeping its size and time; run `skill build --verify` to re-read it")
        try index.refresh(verify: true)
        #expect(try index.entry(id: "navigation/references/deep-links#deep-links")?.title == "Deep links")
    }

    @Test func incrementalBuildsLeaveTheFullTextAndVocabularyOfAFullBuild() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        try box.write("# Deep links\n\nUniversal links need an apple-app-site-association file.\n", to: document)
        try box.write("# Added\n\nZanzibarite appears here only.\n", to: "swiftui-state/references/added.md")
        try index.refresh()
        try FileManager.default.removeItem(at: box.skills.appendingPathComponent("swiftui-state/references/added.md"))
        try box.write("# Other\n\nZanzibarite again, and sheets.\n", to: "navigation/references/other.md")
        try index.refresh()

        let fresh = SkillIndex(roots: [box.skills], indexURL: box.folder.appendingPathComponent("fresh.sqlite"))
        try fresh.refresh()
        let kept = try Self.tables(box.indexURL)
        let full = try Self.tables(box.folder.appendingPathComponent("fresh.sqlite"))
        #expect(kept.vocabulary == full.vocabulary)
        #expect(kept.fullText == full.fullText)
        #expect(kept.vocabulary.contains("zanzibarite 1"))
        #expect(!kept.vocabulary.contains { $0.hasPrefix("pagination ") })
        // The vocabulary is the one FTS5 gives for the entries' unstemmed words.
        #expect(kept.vocabulary == kept.recounted)
    }

    /// An index whose every skill went away is filled again like a new one (its entries' words
    /// kept for one fill at the end): each entry is indexed once, and long text is stored
    /// compressed and read back whole.
    @Test func anEmptiedIndexRefilledIndexesEachEntryOnce() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        let away = box.folder.appendingPathComponent("away")
        try FileManager.default.moveItem(at: box.skills, to: away)
        try FileManager.default.createDirectory(at: box.skills, withIntermediateDirectories: true)
        #expect(try index.refresh().entryCount == 0)
        try FileManager.default.removeItem(at: box.skills)
        try FileManager.default.moveItem(at: away, to: box.skills)
        try index.refresh()

        let fresh = SkillIndex(roots: [box.skills], indexURL: box.folder.appendingPathComponent("fresh.sqlite"))
        try fresh.refresh()
        let kept = try Self.tables(box.indexURL)
        #expect(kept.fullText == (try Self.tables(box.folder.appendingPathComponent("fresh.sqlite"))).fullText)
        #expect(kept.vocabulary == kept.recounted)
        let db = try Database(path: box.indexURL.path)
        defer { db.close() }
        #expect(try db.scalar("SELECT count(*) FROM entries WHERE typeof(text) = 'blob'") ?? 0 > 0)
        let texts = try db.query("SELECT id, inflate(text) FROM entries ORDER BY id") { "\($0.text(0)) \($0.text(1))" }
        let parsed = ["navigation", "swiftui-state"].flatMap {
            SkillLoader.load(folder: box.skills.appendingPathComponent($0), root: box.skills).entries.map { "\($0.id) \($0.text)" }
        }
        #expect(texts == parsed.sorted())
    }

    /// A compressed text that does not inflate (a damaged index file) is an error that says what
    /// to do, not SQLite's bare message.
    @Test func aDamagedCompressedTextIsAClearError() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        let db = try Database(path: box.indexURL.path)
        try db.run("UPDATE entries SET text = x'ffff0000aabbccdd' WHERE typeof(text) = 'blob'")
        db.close()
        let path = box.indexURL.path
        #expect(throws: IndexError.damaged(path, "a compressed text does not inflate")) {
            try index.search("state")
        }
        #expect(
            IndexError.damaged(path, "a compressed text does not inflate").errorDescription
                == "the index \(path) is damaged (a compressed text does not inflate); run `skill build --full` to build it again")
        try index.refresh(full: true)
        #expect(try !index.search("state").results.isEmpty)
    }

    /// `words_vocab`, the full-text index's vocabulary, and the entries' words counted afresh by FTS5.
    private static func tables(_ url: URL) throws -> (vocabulary: [String], fullText: [String], recounted: [String]) {
        let db = try Database(path: url.path)
        defer { db.close() }
        // FTS5's own check of its index against the entries it reads (through `inflate()`): a
        // delete trigger that gave other values than were indexed fails it.
        try db.execute("INSERT INTO fts(fts, rank) VALUES ('integrity-check', 1)")
        try db.execute(
            """
            CREATE VIRTUAL TABLE temp.fts_row USING fts5vocab(main, fts, row);
            CREATE VIRTUAL TABLE temp.recount USING fts5(title, breadcrumb, keywords, text, code,
                content='', detail=none, tokenize='unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE temp.recount_row USING fts5vocab(temp, recount, row);
            INSERT INTO temp.recount(title, breadcrumb, keywords, text, code) SELECT title, breadcrumb, keywords, inflate(text), inflate(code) FROM entries;
            """)
        let row: (Statement) -> String = { "\($0.text(0)) \($0.int(1))" }
        return (
            try db.query("SELECT term, doc FROM words_vocab ORDER BY term", [], row),
            try db.query("SELECT term, doc FROM temp.fts_row ORDER BY term", [], row),
            try db.query("SELECT term, doc FROM temp.recount_row ORDER BY term", [], row)
        )
    }
}
