import Foundation
import SkillParser

/// Read-only connections to one index file, so that searches of different requests run in
/// parallel (`skill serve --http`). Each connection is tagged with the inode of the file it
/// opened: after a rebuild renamed a new index into place, a connection of the old file is
/// closed instead of reused. Readers see one snapshot per read transaction (WAL), so the old
/// index or the new one, never half of either.
final class ReaderPool: @unchecked Sendable {
    private let path: String
    private let capacity: Int
    private let busyTimeout: Int32
    private let condition = NSCondition()
    private var idle: [(db: Database, inode: UInt64)] = []
    /// Connections open, idle or lent.
    private var open = 0
    /// Set while the index file is being replaced: no connection is lent or opened.
    private var draining = false

    /// A pool of at most `capacity` connections to the index at `path`.
    init(path: String, capacity: Int, busyTimeout: Int32) {
        self.path = path
        self.capacity = max(capacity, 1)
        self.busyTimeout = busyTimeout
    }

    /// Runs `body` with a connection to the file whose inode is `inode` (the one the index
    /// checked), waiting for one when all are lent; `nil` when the file was replaced since
    /// (check the index again).
    func withReader<T>(inode: UInt64, _ body: (Database) throws -> T) throws -> T? {
        guard let db = try checkOut(inode: inode) else { return nil }
        defer { checkIn(db, inode: inode) }
        return try body(db)
    }

    private func checkOut(inode: UInt64) throws -> Database? {
        condition.lock()
        while true {
            while draining { condition.wait() }
            while let stale = idle.firstIndex(where: { $0.inode != inode }) {
                idle.remove(at: stale).db.close()
                open -= 1
            }
            if let reader = idle.popLast() {
                condition.unlock()
                return reader.db
            }
            if open < capacity { break }
            condition.wait()
        }
        open += 1
        condition.unlock()
        let db: Database
        do {
            db = try SkillIndex.openToRead(path, busyTimeout: busyTimeout)
        } catch {
            release()
            throw error
        }
        // Only if the file at `path` is still the one with `inode` once opened.
        guard FileStamp.of(path)?.inode == inode else {
            db.close()
            release()
            return nil
        }
        return db
    }

    /// Forgets a connection that could not be opened.
    private func release() {
        condition.lock()
        open -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func checkIn(_ db: Database, inode: UInt64) {
        condition.lock()
        if draining {
            db.close()
            open -= 1
        } else {
            idle.append((db, inode))
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `body` (the rename of a new index into place) once every lent connection is back,
    /// with every connection closed: none keeps the old file's write-ahead log open, and none
    /// is lent until `body` returns.
    func drained<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        draining = true
        for reader in idle { reader.db.close() }
        open -= idle.count
        idle.removeAll()
        while open > 0 { condition.wait() }
        condition.unlock()
        defer {
            condition.lock()
            draining = false
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
