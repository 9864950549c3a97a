import Foundation
import Testing

@testable import SkillServer

/// The server notices changed skills by itself: watching the folders (inotify on Linux), or
/// polling where it cannot watch. A poll interval of an hour shows that a change seen within
/// the test's generous wait came from the watcher.
@Suite struct ChangeMonitorTests {
    /// A root with one skill, `one`.
    func root() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skill-monitor-\(UUID().uuidString)")
        try write("---\nname: one\ndescription: First.\n---\n# One\n", to: root.appendingPathComponent("one/SKILL.md"))
        return root
    }

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Starts a monitor and returns it with a semaphore signalled at each change it reports.
    func monitor(_ kb: any KnowledgeBase, poll: Double, watch: Bool = true) -> (ChangeMonitor, DispatchSemaphore) {
        let changed = DispatchSemaphore(value: 0)
        let monitor = ChangeMonitor(knowledge: kb, pollInterval: poll, watch: watch, log: ServerLog(level: .off)) { changed.signal() }
        monitor.start()
        return (monitor, changed)
    }

    #if os(Linux)
        @Test func aNewSkillIsNoticedWithoutPolling() throws {
            let root = try root()
            defer { try? FileManager.default.removeItem(at: root) }
            let kb = indexedKnowledge([root])
            let (monitor, changed) = monitor(kb, poll: 3600)
            defer { monitor.stop() }
            #expect(kb.watchedFolders() == [root.path, root.appendingPathComponent("one").path])
            try write("---\nname: two\ndescription: Second.\n---\n# Two\n", to: root.appendingPathComponent("two/SKILL.md"))
            #expect(changed.wait(timeout: .now() + 30) == .success)
            #expect(kb.skills().map(\.name) == ["one", "two"])
            // The new folder is watched too: a file edited in place there is noticed.
            let handle = try FileHandle(forWritingTo: root.appendingPathComponent("two/SKILL.md"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n## Wombats\n\nAbout wombats.\n".utf8))
            try handle.close()
            #expect(changed.wait(timeout: .now() + 30) == .success)
            let found = try kb.search(KnowledgeQuery(text: "wombats")).results.map(\.id)
            #expect(found == ["two/SKILL#two/wombats"])
        }

        @Test func aDeletedSkillIsNoticedWithoutPolling() throws {
            let root = try root()
            defer { try? FileManager.default.removeItem(at: root) }
            try write("---\nname: two\ndescription: Second.\n---\n# Two\n", to: root.appendingPathComponent("two/SKILL.md"))
            let kb = indexedKnowledge([root])
            let (monitor, changed) = monitor(kb, poll: 3600)
            defer { monitor.stop() }
            #expect(kb.skills().map(\.name) == ["one", "two"])
            _ = kb.watchedFolders()
            try FileManager.default.removeItem(at: root.appendingPathComponent("two"))
            #expect(changed.wait(timeout: .now() + 30) == .success)
            #expect(kb.skills().map(\.name) == ["one"])
        }
    #endif

    @Test func withoutWatchingItPolls() throws {
        let root = try root()
        defer { try? FileManager.default.removeItem(at: root) }
        let kb = indexedKnowledge([root])
        let (monitor, changed) = monitor(kb, poll: 0.05, watch: false)
        defer { monitor.stop() }
        #expect(kb.skills().map(\.name) == ["one"])
        try write("---\nname: two\ndescription: Second.\n---\n# Two\n", to: root.appendingPathComponent("two/SKILL.md"))
        #expect(changed.wait(timeout: .now() + 30) == .success)
        #expect(kb.skills().map(\.name) == ["one", "two"])
    }
}
