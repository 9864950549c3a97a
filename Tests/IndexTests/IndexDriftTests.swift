import Foundation
import SkillParser
import Testing

@testable import SkillIndex

/// The index never silently drifts from the files: a stamp is recorded only for what a build
/// actually read, `chmod` counts as a change, and `refresh(verify:)` repairs what differs.
@Suite struct IndexDriftTests {
    let document = "navigation/references/deep-links.md"

    @Test func fileMissingDuringABuildIsIndexedOnceItReturns() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        try box.write("# Deep links\n\nUniversal links need an apple-app-site-association file.\n", to: document)
        let file = box.skills.appendingPathComponent(document).path
        let aside = file + ".aside"
        // The file is moved away just as the build reads it (an editor's delete-then-write save).
        index.willRead = { path in
            if path == file { _ = rename(file, aside) }
        }
        try index.refresh()
        index.willRead = nil
        #expect(rename(aside, file) == 0)
        #expect(try index.isStale())
        let report = try index.refresh()
        #expect(report.updated.map(\.name) == ["navigation"])
        #expect(try index.search("association").results.first?.id == "navigation/references/deep-links#deep-links")
        #expect(try !index.isStale())
    }

    /// Issue 27, item 2: while its skill is parsed whole (its SKILL.md changed), a reference is
    /// moved away as the folder is walked and back before the build ends, with the same size and
    /// time. The build must not record it as indexed: the index stays stale until a build reads it.
    @Test func fileMovedAwayAndBackWhileItsSkillIsParsedIsNotLost() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        let skillFile = box.skills.appendingPathComponent("navigation/SKILL.md")
        try box.write(try String(contentsOf: skillFile, encoding: .utf8) + "\n## Added\n\nA new section.\n", to: "navigation/SKILL.md")
        let file = box.skills.appendingPathComponent(document).path
        let aside = file + ".aside"
        // Away just before the parse walks the folder; back when it reads SKILL.md, after the walk.
        var away = false
        index.willParse = { folder in
            if folder.hasSuffix("/navigation") { away = rename(file, aside) == 0 }
        }
        index.willRead = { path in
            if away, path.hasSuffix("/navigation/SKILL.md") {
                away = false
                _ = rename(aside, file)
            }
        }
        let raced = try index.refresh()
        index.willParse = nil
        index.willRead = nil
        #expect(raced.updated.map(\.name) == ["navigation"])
        #expect(try index.search("cursor pagination").results.first?.id != "navigation/references/deep-links#deep-links/cursor-pagination")
        // Not "up to date": the next build reads the file and indexes it again.
        #expect(try index.isStale())
        let report = try index.refresh()
        #expect(report.changed)
        #expect(report.updated.map(\.name) == ["navigation"])
        let found = try index.search("cursor pagination").results.map(\.id)
        #expect(found.first == "navigation/references/deep-links#deep-links/cursor-pagination")
        #expect(try !index.isStale())
    }

    @Test func unreadableFileIsNotStampedAndIsReadOnceReadable() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        try box.write("# Deep links\n\nUniversal links need an apple-app-site-association file.\n", to: document)
        let file = box.skills.appendingPathComponent(document).path
        var readable = false
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        // Stands for `chmod 000` (tests may run as root, who reads anything).
        index.willRead = { path in
            if path == file, !readable { try? FileManager.default.removeItem(atPath: path) }
        }
        try index.refresh()
        #expect(try index.isStale())
        readable = true
        try bytes.write(to: URL(fileURLWithPath: file))
        try index.refresh()
        #expect(try index.search("association").results.first?.id == "navigation/references/deep-links#deep-links")
    }

    @Test func chmodChangesTheStamp() throws {
        let box = try Sandbox()
        let file = box.skills.appendingPathComponent("navigation/SKILL.md").path
        let before = try #require(FileStamp.of(file))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let after = try #require(FileStamp.of(file))
        #expect(before.size == after.size)
        #expect(before.mtime != after.mtime)
    }

    @Test func verifyRepairsEntriesLostWithAStampThatStillMatches() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        let id = "navigation/references/deep-links#deep-links"
        #expect(try index.entry(id: id)?.id == id)
        // What the old builder left after a failed read: the stamp kept, the entries gone.
        let db = try Database(path: box.indexURL.path)
        let file = box.skills.appendingPathComponent(document).path
        try db.run("DELETE FROM entries WHERE doc = (SELECT id FROM documents WHERE file = ?)", [.text(file)])
        try db.run("UPDATE documents SET hash = '0' WHERE file = ?", [.text(file)])
        db.close()
        #expect(try !index.isStale())
        #expect(!(try index.refresh().changed))
        #expect(try index.entry(id: id) == nil)
        let report = try index.refresh(verify: true)
        #expect(!report.full)
        #expect(report.verified == 3)
        #expect(report.documentsParsed == 1)
        #expect(report.updated.map(\.name) == ["navigation"])
        #expect(report.added.isEmpty && report.removed.isEmpty)
        #expect(try index.entry(id: id)?.id == id)
    }
}

extension IndexDriftTests {
    @Test func aStagingFolderOfAnInterruptedInstallIsNeverIndexed() throws {
        let box = try Sandbox()
        try FileManager.default.copyItem(
            at: box.skills.appendingPathComponent("navigation"),
            to: box.skills.appendingPathComponent(".skill-staging-99999999-install-1F0E/navigation"))
        let report = try box.index().refresh()
        #expect(report.added.map(\.name) == ["navigation", "swiftui-state"])
    }
}

extension IndexDriftTests {
    @Test func aDocumentLinkedFromAnotherSkillIsNotListed() throws {
        let box = try Sandbox()
        let link = box.skills.appendingPathComponent("swiftui-state/linked.md")
        try FileManager.default.createSymbolicLink(
            at: link, withDestinationURL: box.skills.appendingPathComponent("navigation/references/deep-links.md"))
        try FileManager.default.createSymbolicLink(
            at: box.skills.appendingPathComponent("swiftui-state/own.md"),
            withDestinationURL: box.skills.appendingPathComponent("swiftui-state/SKILL.md"))
        let index = box.index()
        try index.refresh()
        let documents = try index.skills().first { $0.name == "swiftui-state" }?.documents ?? []
        #expect(documents == ["swiftui-state/SKILL.md", "swiftui-state/own.md"])
    }
}

extension IndexDriftTests {
    @Test func aReaderAnswersFromTheCommittedIndexWhileAnotherProcessWrites() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        try box.write("# Deep links\n\nUniversal links need an apple-app-site-association file.\n", to: document)
        let writer = try Database(path: box.indexURL.path)
        try writer.execute("BEGIN IMMEDIATE")
        #expect(throws: IndexError.busy(box.indexURL.path)) { try index.refresh(waitForWriter: false) }
        #expect(IndexError.busy(box.indexURL.path).leavesIndexReadable)
        // The committed index still answers, with the old text.
        #expect(try index.search("pagination").results.first?.id.hasPrefix("navigation/references/deep-links") == true)
        try writer.execute("ROLLBACK")
        writer.close()
        try index.refresh(waitForWriter: false)
        #expect(try index.search("association").results.first?.id == "navigation/references/deep-links#deep-links")
    }
}

extension IndexDriftTests {
    /// Issue 27, item 3: a full disk (SQLite's SQLITE_FULL, thrown by a hook just before the
    /// commit, as a real full disk does when the log grows) rolls the refresh back: the error
    /// says why, and the committed index still answers.
    @Test func aFullDiskLeavesTheCommittedIndexAnswering() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        try box.write("# Deep links\n\nUniversal links need an apple-app-site-association file.\n", to: document)
        index.willCommit = { throw SQLiteError(code: 13, message: "database or disk is full") }
        #expect(throws: IndexError.unwritable(box.indexURL.path, "database or disk is full")) { try index.refresh() }
        #expect(IndexError.unwritable(box.indexURL.path, "").leavesIndexReadable)
        #expect(try index.search("pagination").results.first?.id.hasPrefix("navigation/references/deep-links") == true)
        #expect(try index.search("association").results.isEmpty)
        #expect(try index.isStale())
        index.willCommit = nil
        try index.refresh()
        #expect(try index.search("association").results.first?.id == "navigation/references/deep-links#deep-links")
    }
}
