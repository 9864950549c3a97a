import Foundation
import SkillParser

/// The knowledge index of a set of skill roots: one SQLite file, kept up to date incrementally.
///
/// ```swift
/// let index = SkillIndex(configuration: try .resolve())
/// let report = try index.refresh()          // cheap when nothing changed
/// let hits = try index.search("property wrapper", limit: 5)
/// let entry = try index.entry(id: hits.results[0].id)
/// ```
///
/// Calls are serialised by a lock, so one instance can be shared between tasks; with
/// ``enableParallelSearches(readers:)``, searches run in parallel over read-only connections. Several
/// processes may use the same file: refreshes are serialised by SQLite's write lock, and readers
/// always see a complete index (the old one until a refresh commits).
public final class SkillIndex: @unchecked Sendable {  // its vars change inside `locked`; the test hooks before sharing
    /// The roots and the index file.
    public let configuration: IndexConfiguration
    /// Serialises calls: every `var` below is read and written inside ``locked(_:)``.
    private let lock = Locked()
    private var db: Database?
    private var openedInode: UInt64?
    /// Why the open connection cannot write the index (its file or folder is read-only), when
    /// so: readers answer from it, a refresh throws ``IndexError/unwritable(_:_:)`` with this.
    private var readOnlyReason: String?
    /// Read-only connections for searches in parallel; `nil` (one connection) unless enabled.
    private var readers: ReaderPool?
    /// Test hook: stop a build after this many parsed documents, as a crash would.
    var stopAfterDocuments: Int?
    /// How long to wait for another process's refresh, in milliseconds.
    var busyTimeout: Int32 = 30_000
    /// The checker built from this index (`skill check`), until the skills change.
    let checkerCache = CheckerCache()
    /// The encoder and the vector table, once loaded (SkillIndex+Vectors).
    let semantic = SemanticState()
    /// Test hook: called with a document's path just before a build reads it.
    var willRead: ((String) -> Void)?
    /// Test hook: called with a skill's folder just before a build parses it whole.
    var willParse: ((String) -> Void)?
    /// Test hook: called inside an incremental build's transaction just before it commits (a
    /// test throws SQLite's "database or disk is full" from it).
    var willCommit: (() throws -> Void)?
    /// Test hook: the time a freshness check compares with the recorded ones (nanoseconds
    /// since 1970).
    var clock: () -> Int64 = Freshness.now

    /// An index for `configuration`; nothing is opened until the first call.
    public init(configuration: IndexConfiguration) {
        self.configuration = configuration
    }

    /// An index for explicit roots, at `indexURL`.
    public convenience init(roots: [URL], indexURL: URL) {
        self.init(configuration: IndexConfiguration(roots: roots, indexURL: indexURL))
    }

    /// Lets up to `readers` searches run at once, each over its own read-only connection
    /// (opened when first needed), instead of one at a time over the index's connection. For a
    /// server answering many clients; call before sharing the instance.
    public func enableParallelSearches(readers count: Int) {
        readers = count > 1 ? ReaderPool(path: path, capacity: count, busyTimeout: busyTimeout) : nil
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { try body() }
    }

    private var path: String { configuration.indexURL.path }

    /// Whether the index file exists (a previous build committed it).
    public var exists: Bool { FileManager.default.fileExists(atPath: path) }

    private var rootsJSON: String {
        (try? IndexBuilder.json(configuration.roots.map(\.path))) ?? "[]"
    }

    // MARK: Building

    /// Brings the index up to date with the skills on disk and reports what changed.
    ///
    /// A fresh index costs one `stat` per folder and document under the default rule, less (or
    /// nothing) under a reader's rule (``FreshnessRule``). Otherwise only changed documents
    /// are parsed and written in one transaction. A missing or unusable index (another schema
    /// version, other roots, not a database) is written to a temporary file renamed into place.
    /// - Parameters:
    ///   - full: parse every skill into a new index renamed into place (never a half-written
    ///     index; nothing of the old file is read, so a damaged one is mended).
    ///   - verify: read and hash every document, whatever its size and time say, and repair
    ///     what differs from the index.
    ///   - waitForWriter: wait (up to the busy timeout) for another process writing the index;
    ///     `false` fails at once with ``IndexError/busy(_:)``, for a reader that would rather
    ///     answer from the index as committed.
    ///   - freshness: how much the check may rely on earlier checks; by default every recorded
    ///   folder and document is statted.
    ///   - progress: called after each skill parsed, for a progress line.
    /// - Throws: ``IndexError`` or ``SQLiteError`` when the index cannot be written.
    @discardableResult
    public func refresh(
        full: Bool = false, verify: Bool = false, waitForWriter: Bool = true, freshness: FreshnessRule = .everything,
        progress: ((BuildProgress) -> Void)? = nil
    ) throws -> BuildReport {
        try locked {
            if !full, !verify, let db = try usableDatabase(),
                try Freshness.isFresh(
                    db, rule: freshness, now: clock(), checks: path + Freshness.checksSuffix, roots: configuration.roots.map(\.path))
            {
                return try unchangedReport(db)
            }
            // A full build writes a new index beside the old one, as for a missing index: it reads
            // nothing of the old file, so it also mends a damaged one.
            guard !full, let db = try usableDatabase() else { return try rebuild(progress: progress) }
            if let readOnlyReason { throw IndexError.unwritable(path, readOnlyReason) }
            db.setBusyTimeout(waitForWriter ? busyTimeout : 0)
            defer { db.setBusyTimeout(busyTimeout) }
            do {
                return try db.transaction {
                    let report = try IndexBuilder(
                        db: db, roots: configuration.roots, stopAfterDocuments: stopAfterDocuments, progress: progress,
                        verify: verify, willRead: willRead, willParse: willParse, clock: clock
                    ).update(walk: verify)
                    try willCommit?()
                    return report
                }
            } catch let error as SQLiteError where error.isBusy {
                throw IndexError.busy(path)
            } catch let error as SQLiteError where error.isReadOnly || error.isWriteFailure {
                // Rolled back: the file still holds the last committed index.
                throw IndexError.unwritable(path, error.isReadOnly ? unwritableReason() : error.message)
            }
        }
    }

    /// Whether skills changed on disk since the last refresh (or the index does not exist yet).
    public func isStale() throws -> Bool {
        try locked {
            guard let db = try usableDatabase() else { return true }
            return try !Freshness.isFresh(db, checks: path + Freshness.checksSuffix)
        }
    }

    /// Every folder the last refresh recorded under the roots (the roots, the skills' folders
    /// and their subfolders): where a change can make the index stale, so what a watcher watches.
    public func recordedFolders() throws -> [String] {
        try locked {
            guard let db = try usableDatabase() else { return [] }
            return try db.query("SELECT path FROM dirs ORDER BY path") { $0.text(0) }
        }
    }

    private func unchangedReport(_ db: Database) throws -> BuildReport {
        var report = BuildReport(full: false)
        report.skillCount = Int(try db.scalar("SELECT count(*) FROM skills WHERE name IS NOT NULL") ?? 0)
        report.entryCount = Int(try db.scalar("SELECT count(*) FROM entries") ?? 0)
        return report
    }

    /// The open connection when the file is an index of this schema and these roots, else `nil`.
    private func usableDatabase() throws -> Database? {
        let stamp = FileStamp.of(path)
        if let db, stamp?.inode == openedInode { return db }
        // The readers close first: the last connection to close empties the write-ahead log,
        // and a read-only one cannot.
        readers?.drained { db?.close() } ?? db?.close()
        db = nil
        readOnlyReason = nil
        guard let stamp else { return nil }
        func isThisIndex(_ db: Database) throws -> Bool {
            try db.text("SELECT value FROM meta WHERE key = 'schemaVersion'") == String(Schema.version)
                && db.text("SELECT value FROM meta WHERE key = 'roots'") == rootsJSON
        }
        let opened: Database
        do {
            let writable = try Database(path: path, busyTimeout: busyTimeout)
            guard try isThisIndex(writable) else { return nil }
            opened = writable
        } catch let error as SQLiteError where error.isBusy {
            throw IndexError.busy(path)
        } catch {
            // In a folder that cannot be written SQLite cannot make the `-shm` file it reads
            // with: open the index only to read, so that readers still answer from it.
            guard let readable = try? Self.openToRead(path, busyTimeout: busyTimeout), (try? isThisIndex(readable)) == true else {
                return nil
            }
            opened = readable
        }
        if opened.isReadOnly { readOnlyReason = unwritableReason() }
        try? opened.execute("PRAGMA synchronous = NORMAL")
        db = opened
        openedInode = stamp.inode
        markUsed(stamp)
        return opened
    }

    /// The database at `path` opened to read, even in a folder that cannot be written: a plain
    /// read-only connection when SQLite can read through it, else an immutable one (no lock, no
    /// `-shm`; no one can write the index there to change it under the reader meanwhile).
    static func openToRead(_ path: String, busyTimeout: Int32) throws -> Database {
        if let db = try? Database(path: path, readOnly: true, busyTimeout: busyTimeout),
            (try? db.scalar("SELECT count(*) FROM sqlite_master")) != nil
        {
            return db
        }
        return try Database(path: path, immutable: true, busyTimeout: busyTimeout)
    }

    /// Why the index cannot be written, in a user's words: the file, or its folder.
    private func unwritableReason() -> String {
        if access(path, W_OK) != 0 { return "the file cannot be written (\(String(cString: strerror(errno))))" }
        let folder = configuration.indexURL.deletingLastPathComponent().path
        if access(folder, W_OK) != 0 { return "its folder \(folder) cannot be written (\(String(cString: strerror(errno))))" }
        return "SQLite can only open it to read"
    }

    /// Renews the index file's time at most once a day, so that ``IndexCache/prune(folder:keeping:now:)``
    /// keeps the indexes in use (reading alone does not change it).
    private func markUsed(_ stamp: FileStamp) {
        let day: Int64 = 24 * 3600 * 1_000_000_000
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        if now - stamp.mtime > day { utimes(path, nil) }
    }

    /// Writes a whole new index beside the old one and renames it into place: readers see the
    /// old index or the new one, never a half-written one.
    private func rebuild(progress: ((BuildProgress) -> Void)?) throws -> BuildReport {
        guard isReplaceable() else { throw IndexError.notAnIndex(path) }
        let folder = configuration.indexURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw IndexError.unwritable(path, error.localizedDescription)
        }
        TemporaryIndexFiles.sweep(beside: configuration.indexURL)
        let temp = TemporaryIndexFiles.make(beside: path)
        defer { TemporaryIndexFiles.remove(temp) }
        let report: BuildReport
        do {
            let db = try Database(path: temp)
            try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
            try db.execute(Schema.create)
            report = try db.transaction {
                try db.run("INSERT INTO meta(key, value) VALUES ('schemaVersion', ?)", [.text(String(Schema.version))])
                try db.run("INSERT INTO meta(key, value) VALUES ('roots', ?)", [.text(rootsJSON)])
                var report = try IndexBuilder(
                    db: db, roots: configuration.roots, stopAfterDocuments: stopAfterDocuments, progress: progress
                )
                .update(walk: true)
                report.full = true
                return report
            }
            // One segment: every search then looks each word up once, not once a segment.
            try db.execute("INSERT INTO fts(fts) VALUES ('optimize'); PRAGMA incremental_vacuum;")
            try db.execute("PRAGMA journal_mode = WAL")
            db.close()
        } catch let error as SQLiteError {
            throw IndexError.unwritable(path, error.isReadOnly ? unwritableReason() : error.message)
        }
        // No reader keeps the old file (or its write-ahead log, whose name the new file takes)
        // open across the rename.
        let renamed = readers?.drained { replace(with: temp) } ?? replace(with: temp)
        guard renamed == 0 else {
            throw IndexError.unwritable(path, String(cString: strerror(errno)))
        }
        db?.close()
        db = nil
        return report
    }

    /// Renames the new index at `temp` into place; `rename`'s result.
    private func replace(with temp: String) -> Int32 {
        // Empty the old index's write-ahead log, so a reader opening the new file never sees
        // the old file's pages.
        if FileManager.default.fileExists(atPath: path) {
            if let old = try? Database(path: path, busyTimeout: busyTimeout) {
                try? old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                old.close()
            }
        } else {
            // The file was deleted while a connection had it open: its log and shared memory
            // are leftovers that SQLite would replay onto the new file of the same name.
            unlink(path + "-wal")
            unlink(path + "-shm")
        }
        return rename(temp, path)
    }

    /// Whether the file at the index's path may be replaced by a new index: it does not exist,
    /// is empty, or is an index of ours (an SQLite database whose `meta` table holds a
    /// `schemaVersion`, of any version). A mistyped `--index` must never destroy a user's file.
    private func isReplaceable() -> Bool {
        guard let stamp = FileStamp.of(path) else { return true }
        if stamp.isDirectory { return false }
        if stamp.size == 0 { return true }
        guard let db = try? Self.openToRead(path, busyTimeout: busyTimeout) else { return false }
        defer { db.close() }
        return (try? db.text("SELECT value FROM meta WHERE key = 'schemaVersion'")) != nil
    }

    /// Opens the index, building it first when it does not exist yet.
    func database() throws -> Database {
        if let db = try usableDatabase() { return db }
        _ = try rebuild(progress: nil)
        guard let db = try usableDatabase() else { throw IndexError.unwritable(path, "the new index cannot be read") }
        return db
    }

    // MARK: Reading

    /// The most results one search gives: the ranking re-scores its best 100 candidates, so a
    /// larger `limit` would silently give no more.
    public static let maximumResults = Searcher.Ranking().candidates

    /// Ranked entries for `query` (DESIGN.md query language), best first. Does not refresh:
    /// call ``refresh(full:progress:)`` first when the skills may have changed.
    /// - Parameters:
    ///   - kind: only entries of this kind (as `kind:` in the query).
    ///   - skill: only entries of this skill (as `skill:` in the query).
    ///   - limit: at most this many results.
    ///   - lexical: rank by words alone, without the vector stage (which runs only when a model
    ///     is set up and the index has vectors: ``embed(budget:progress:)``).
    public func search(
        _ query: String, kind: EntryKind? = nil, skill: String? = nil, limit: Int = 10, lexical: Bool = false
    ) throws -> SearchResults {
        let vectors: VectorSource? = lexical ? nil : { [self] in vectorQuery(query) }
        guard let readers else {
            return try locked { try search(query, kind: kind, skill: skill, limit: limit, vectors: vectors, in: database()) }
        }
        while true {
            // The index's connection checks the file (building it when missing); a reader of the
            // same file then searches without the lock.
            let inode = try locked {
                _ = try database()
                return openedInode ?? 0
            }
            if let found = try readers.withReader(
                inode: inode, { try search(query, kind: kind, skill: skill, limit: limit, vectors: vectors, in: $0) })
            {
                return found
            }
        }
    }

    private func search(
        _ query: String, kind: EntryKind?, skill: String?, limit: Int, vectors: VectorSource?, in db: Database
    ) throws -> SearchResults {
        do {
            return try search(query, kind: kind, skill: skill, limit: limit, vectors: vectors, reading: db)
        } catch let error as SQLiteError where error.isCorrupt {
            throw IndexError.damaged(path, error.message)
        }
    }

    private func search(
        _ query: String, kind: EntryKind?, skill: String?, limit: Int, vectors: VectorSource?, reading db: Database
    ) throws -> SearchResults {
        // One read transaction: the search's statements see one snapshot and take the lock once.
        try db.read {
            var searcher = Searcher(db: db)
            searcher.isDictionaryWord = { [self] word in encoder()?.isVocabularyWord(word) ?? false }
            var found = try searcher.search(query, kind: kind, skill: skill, limit: limit, vectors: vectors)
            // A plugin's skill (`PLUGIN:SKILL`) says which plugin, and its version.
            var plugins: [String: PluginSummary?] = [:]
            for i in found.results.indices where found.results[i].skill.contains(":") {
                let name = found.results[i].skill
                if plugins[name] == nil {
                    let root = try db.text("SELECT root FROM skills WHERE name = ?", [.text(name)])
                    plugins[name] = root.flatMap { ClaudePlugin.owning(skillsFolder: URL(fileURLWithPath: $0)) }
                        .map { PluginSummary(name: $0.name, version: $0.version) }
                }
                found.results[i].plugin = plugins[name] ?? nil
            }
            return found
        }
    }

    /// The entry with this id, in full; `nil` when there is none.
    ///
    /// The index keeps no copy of an entry's details: its document is read and parsed again (a
    /// millisecond), after checking that it still has the content hash the index recorded. When
    /// it does not (edited or removed since the last refresh), the index is refreshed first and
    /// the id looked up again.
    /// - Throws: ``IndexError/documentChanged(_:)`` when the document still differs from the
    ///   index after a refresh (edited without a change of size or time).
    public func entry(id: String) throws -> Entry? {
        switch try locked({ try storedEntry(id: id) }) {
        case .found(let entry): return entry
        case .none: return nil
        case .changed:
            do {
                try refresh()
            } catch let error as IndexError where error.leavesIndexReadable && exists {
                // The index cannot be brought up to date: the entry as its document now has it.
                switch try locked({ try storedEntry(id: id, asNow: true) }) {
                case .found(let entry): return entry
                case .none, .changed: return nil
                }
            }
            switch try locked({ try storedEntry(id: id) }) {
            case .found(let entry): return entry
            case .none: return nil
            case .changed(let file): throw IndexError.documentChanged(file)
            }
        }
    }

    private enum StoredEntry {
        case found(Entry)
        case none
        /// Its document (this file) is gone or no longer has the recorded content.
        case changed(String)
    }

    /// - Parameter asNow: parse the document as it is now, whatever hash the index recorded.
    private func storedEntry(id: String, asNow: Bool = false) throws -> StoredEntry {
        let rows = try database().query(
            """
            SELECT d.file, d.path, d.hash, s.folder, s.root, s.name FROM entries e
            JOIN documents d ON d.id = e.doc JOIN skills s ON s.folder = d.folder WHERE e.key = ? AND e.id = ?
            """, [FNV1a.key(id), .text(id)]
        ) { (file: $0.text(0), path: $0.text(1), hash: $0.text(2), folder: $0.text(3), root: $0.text(4), name: $0.text(5)) }
        guard let row = rows.first else { return .none }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: row.file)), asNow || Scanner.hash(data) == row.hash else {
            return .changed(row.file)
        }
        let entries = SkillLoader.entries(
            ofDocument: data, path: row.path, folder: URL(fileURLWithPath: row.folder, isDirectory: true),
            root: URL(fileURLWithPath: row.root, isDirectory: true), as: row.name)
        guard let entry = entries.first(where: { $0.id == id }) else { return .changed(row.file) }
        return .found(entry)
    }

    /// Ids of entries starting with `prefix`, sorted (for completing a partial id).
    public func entryIDs(prefix: String, limit: Int = 20) throws -> [String] {
        try locked {
            let upper = prefix + "\u{10FFFF}"
            return try database().query(
                "SELECT id FROM entries WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                [.text(prefix), .text(upper), .int(Int64(limit))]
            ) { $0.text(0) }
        }
    }

    /// Ids near `id`, for a reader who mistyped one: the same document's first, then the same
    /// skill's, then any, each by edit distance.
    public func nearIDs(to id: String, limit: Int = 5) throws -> [String] {
        let document = id.split(separator: "#", maxSplits: 1).first.map(String.init) ?? id
        let skill = id.split(separator: "/", maxSplits: 1).first.map(String.init) ?? id
        var seen = Set<String>()
        var near: [String] = []
        for prefix in [document + "#", skill + "/", ""] where near.count < limit {
            let ids = try entryIDs(prefix: prefix, limit: IDSuggestions.maxCandidates).filter { !seen.contains($0) }
            for candidate in IDSuggestions.rank(id, candidates: ids, limit: limit - near.count) {
                seen.insert(candidate)
                near.append(candidate)
            }
        }
        return near
    }

    /// Every indexed skill's name and the root it was found under: what a search needs of the
    /// skills (names for its filters, roots for absolute paths), without ``skills()``'s counts.
    public func skillRoots() throws -> [String: String] {
        try locked {
            var roots: [String: String] = [:]
            for (name, root) in try database().query(
                "SELECT name, root FROM skills WHERE name IS NOT NULL", [], { ($0.text(0), $0.text(1)) })
            {
                roots[name] = root
            }
            return roots
        }
    }

    /// Every indexed skill, sorted by name, with its root, folder and entry counts by kind.
    public func skills() throws -> [SkillSummary] {
        try locked {
            let db = try database()
            var counts: [String: [String: Int]] = [:]
            for (skill, kind, n) in try db.query(
                "SELECT skill, kind, count(*) FROM entries GROUP BY skill, kind", [],
                {
                    ($0.text(0), $0.text(1), Int($0.int(2)))
                })
            {
                counts[skill, default: [:]][kind] = n
            }
            var documents: [String: [String]] = [:]
            for (folder, path) in try db.query("SELECT folder, path FROM documents ORDER BY path", [], { ($0.text(0), $0.text(1)) }) {
                documents[folder, default: []].append(path)
            }
            var plugins: [String: PluginSummary?] = [:]
            func plugin(_ root: String) -> PluginSummary? {
                if let known = plugins[root] { return known }
                let found = ClaudePlugin.owning(skillsFolder: URL(fileURLWithPath: root)).map {
                    PluginSummary(name: $0.name, version: $0.version)
                }
                plugins[root] = found
                return found
            }
            return try db.query(
                "SELECT name, description, root, path, folder FROM skills WHERE name IS NOT NULL ORDER BY name"
            ) { row in
                SkillSummary(
                    name: row.text(0), description: row.text(1), root: row.text(2), path: row.text(3),
                    entries: counts[row.text(0)] ?? [:], documents: documents[row.text(4)] ?? [], plugin: plugin(row.text(2)))
            }
        }
    }

    /// The skill named `name`, if indexed.
    public func skill(named name: String) throws -> SkillSummary? {
        try skills().first { $0.name == name }
    }

    /// The folder of the skill named `name` on disk (read SKILL.md and its documents from it).
    public func skillFolder(named name: String) throws -> URL? {
        try locked {
            try database().query("SELECT folder FROM skills WHERE name = ?", [.text(name)]) {
                URL(fileURLWithPath: $0.text(0), isDirectory: true)
            }.first
        }
    }

    /// Every diagnostic of the indexed documents and of duplicate skill names, by path and line.
    public func diagnostics() throws -> [Diagnostic] {
        try locked {
            let db = try database()
            let decoder = JSONDecoder()
            var all: [Diagnostic] = []
            for json in try db.query("SELECT diagnostics FROM documents WHERE diagnostics != '[]' ORDER BY path", [], { $0.text(0) }) {
                all += (try? decoder.decode([Diagnostic].self, from: Data(json.utf8))) ?? []
            }
            if let json = try db.text("SELECT value FROM meta WHERE key = 'duplicates'") {
                all += (try? decoder.decode([Diagnostic].self, from: Data(json.utf8))) ?? []
            }
            return all
        }
    }
}
