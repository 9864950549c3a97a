import Foundation
import SkillParser

/// Read-only connections to one index file, so that searches of different requests run in
/// parallel (`skill serve --http`). Each connection is tagged with the inode of the file it
/// opened: after a rebuild renamed a new index into place, a connection of the old file is
/// closed instead of reused. Readers see one snapshot per read transaction (WAL), so the old
/// index or the new one, never half of either.
final class ReaderPool: Sendable {
    private let path: String
    private let capacity: Int
    private let busyTimeout: Int32
    private struct State {
        var idle: [(db: Database, inode: UInt64)] = []
        /// Connections open, idle or lent.
        var open = 0
        /// Set while the index file is being replaced: no connection is lent or opened.
        var draining = false
    }
    private let state = LockedCondition(State())

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
        // An idle connection (of this file, or of an old one to close, which frees a place) or
        // a free place; after the stale ones are closed, an idle one is lent, else one is opened.
        let lent = state.withLock(
            waitingUntil: { !$0.draining && (!$0.idle.isEmpty || $0.open < capacity) },
            then: { state -> Database? in
                while let stale = state.idle.firstIndex(where: { $0.inode != inode }) {
                    state.idle.remove(at: stale).db.close()
                    state.open -= 1
                }
                if let reader = state.idle.popLast() { return reader.db }
                state.open += 1
                return nil
            })
        if let lent { return lent }
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
        state.withLock(wake: .all) { $0.open -= 1 }
    }

    private func checkIn(_ db: Database, inode: UInt64) {
        state.withLock(wake: .all) { state in
            if state.draining {
                db.close()
                state.open -= 1
            } else {
                state.idle.append((db, inode))
            }
        }
    }

    /// Runs `body` (the rename of a new index into place) once every lent connection is back,
    /// with every connection closed: none keeps the old file's write-ahead log open, and none
    /// is lent until `body` returns.
    func drained<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { state in
            state.draining = true
            for reader in state.idle { reader.db.close() }
            state.open -= state.idle.count
            state.idle.removeAll()
        }
        state.wait(until: { $0.open == 0 })
        defer { state.withLock(wake: .all) { $0.draining = false } }
        return try body()
    }
}
