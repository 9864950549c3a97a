import Foundation
import SkillParser
import Testing

@testable import SkillIndex

/// `enableParallelSearches(readers:)`: searches over a pool of read-only connections give the
/// answers of the index's own connection, run at the same time, and follow a refresh or a rebuild.
@Suite struct ParallelSearchTests {
    @Test func pooledSearchesAnswerAsTheIndexsConnection() throws {
        let box = try Sandbox()
        let single = box.index()
        try single.refresh()
        let pooled = box.index()
        pooled.enableParallelSearches(readers: 2)
        for query in ["deep links", "property wrapper", "kind:pitfall state"] {
            #expect(try pooled.search(query).results.map(\.id) == single.search(query).results.map(\.id))
        }
    }

    @Test func twoReadersAreLentAtOnce() throws {
        let box = try Sandbox()
        try box.index().refresh()
        let pool = ReaderPool(path: box.indexURL.path, capacity: 2, busyTimeout: 1000)
        let inode = try #require(FileStamp.of(box.indexURL.path)?.inode)
        // Each reader, while lent, waits for the other to be lent: both can only be lent at once.
        let lent = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let met = Met()
        let group = DispatchGroup()
        for me in 0..<2 {
            DispatchQueue.global().async(group: group) {
                let counted = try? pool.withReader(inode: inode) { db in
                    lent[me].signal()
                    if lent[1 - me].wait(timeout: .now() + 30) == .success { met.add() }
                    return try db.scalar("SELECT count(*) FROM entries")
                }
                #expect(counted != nil)
            }
        }
        group.wait()
        #expect(met.count == 2)
    }

    @Test func pooledSearchesSeeARefreshAndARebuild() throws {
        let box = try Sandbox()
        let index = box.index()
        index.enableParallelSearches(readers: 2)
        try index.refresh()
        #expect(try index.search("zanzibarquokka").results.isEmpty)
        try box.write(
            "---\nname: notes\ndescription: Notes.\n---\n# Notes\n\n## Quokka\n\nThe zanzibarquokka rule.\n", to: "notes/SKILL.md")
        try index.refresh()
        #expect(try index.search("zanzibarquokka").results.map(\.id) == ["notes/SKILL#notes/quokka"])
        // Another process's rebuild renames a new file into place (its old log emptied first):
        // the readers of the old file are closed, not reused.
        try box.write(
            "---\nname: notes\ndescription: Notes.\n---\n# Notes\n\n## Wombat\n\nThe zanzibarwombat rule.\n", to: "notes/SKILL.md")
        let other = box.folder.appendingPathComponent("other.sqlite")
        try SkillIndex(roots: [box.skills], indexURL: other).refresh()
        try Database(path: box.indexURL.path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(rename(other.path, box.indexURL.path) == 0)
        #expect(try index.search("zanzibarwombat").results.map(\.id) == ["notes/SKILL#notes/wombat"])
        #expect(try index.search("zanzibarquokka").results.isEmpty)
    }
}

/// How many readers saw the other lent.
private final class Met: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() {
        lock.lock()
        value += 1
        lock.unlock()
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
