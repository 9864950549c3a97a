import Foundation
import SkillParser

/// How much a refresh may rely on earlier checks instead of a `stat` of every recorded folder and
/// document (docs/search.md, "Freshness"). A build records its time in the index's `meta` table
/// and a reader's check in a small file beside the index, so the rule holds across processes: a
/// burst of `skill search` calls stats nothing.
///
/// A check, in order:
/// 1. **Full check** when the last full check (or build) is older than ``fullCheckSeconds``,
///    or none is recorded: every recorded folder and document.
/// 2. **Trusted** when the last check of any kind found the index fresh less than
///    ``trustSeconds`` ago: nothing is statted.
/// 3. **Bounded check** otherwise: every recorded folder (a file added, removed or renamed
///    changes its folder's time) and the ``Freshness/recentCount`` documents changed most
///    recently before the last build (an editor writing in place changes only its file's time).
///
/// So a change to a folder or a recent document is seen by every call made more than
/// ``trustSeconds`` after it, and any other change (an old document edited in place) by every
/// call made more than ``fullCheckSeconds`` after it.
public struct FreshnessRule: Hashable, Sendable {
    /// How long a check that found the index fresh is trusted, in seconds; 0 never.
    public var trustSeconds: Double
    /// How old the last full check may be before the next check is a full one, in seconds; 0
    /// makes every check a full one.
    public var fullCheckSeconds: Double

    /// A rule; both times in seconds.
    public init(trustSeconds: Double, fullCheckSeconds: Double) {
        self.trustSeconds = trustSeconds
        self.fullCheckSeconds = fullCheckSeconds
    }

    /// Every folder and document statted on every check: `skill build`, the server (whose
    /// checks are triggered by the watcher or the poll), and the library's default.
    public static let everything = FreshnessRule(trustSeconds: 0, fullCheckSeconds: 0)

    /// The readers' rule (`search`, `show`, `list`, …): trust a check for 2 s, a full check
    /// at least every 30 s. `SKILL_TRUST_SECONDS` sets the trust window; `0` means
    /// ``everything`` (a full check on every call, as before this rule existed).
    public static func reader(environment: [String: String] = ProcessInfo.processInfo.environment) -> FreshnessRule {
        let trust = environment["SKILL_TRUST_SECONDS"].flatMap(Double.init).map { max($0, 0) } ?? defaultTrustSeconds
        guard trust > 0 else { return .everything }
        return FreshnessRule(trustSeconds: trust, fullCheckSeconds: max(defaultFullCheckSeconds, trust))
    }

    /// The readers' default trust window, in seconds.
    public static let defaultTrustSeconds = 2.0
    /// The readers' default bound on the age of the last full check, in seconds.
    public static let defaultFullCheckSeconds = 30.0
}

/// The freshness check itself and what it records: a build, in `meta` (inside its transaction),
/// `freshness.checked` and `freshness.full` (when it began, in nanoseconds since 1970) and
/// `freshness.recent` (the documents a bounded check stats, with their recorded stamps); a
/// reader's check that found the index fresh, in `INDEX.checked` (`CHECKED FULL`: when it, and
/// the last full check, began). A write to the index would cost a transaction and SQLite's
/// checkpoint when the process closes it (4 `fdatasync` and an `fsync` measured); the file is one
/// small write, and a torn or missing one only means the build's record is used.
enum Freshness {
    /// How many recently changed documents a bounded check stats.
    static let recentCount = 64

    /// The current time in nanoseconds since 1970 (a test passes its own clock).
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000_000) }

    /// The suffix of the file beside the index that records the readers' checks.
    static let checksSuffix = ".checked"

    private static let checkedKey = "freshness.checked"
    private static let fullKey = "freshness.full"
    private static let recentKey = "freshness.recent"

    /// Whether the index is fresh under `rule`; a check that found it fresh is recorded in
    /// `checks` (when it can be written: a read-only folder is simply not marked).
    /// - Parameters:
    ///   - checks: the file of the readers' checks (the index's path + ``checksSuffix``).
    ///   - roots: the roots, statted even inside the trust window: a skill installed, replaced
    ///     or removed (`skill install`, `uninstall`, or by hand) changes its root's time, and is
    ///     then seen by the next call, not 2 s later.
    static func isFresh(
        _ db: Database, rule: FreshnessRule = .everything, now: Int64 = now(), checks: String, roots: [String] = []
    ) throws -> Bool {
        let marked = rule == .everything ? nil : readChecks(checks)
        /// The latest of the build's and the readers' record; `nil` when none, or in the future.
        func latest(_ key: String, _ mark: Int64?) throws -> Int64? {
            let built = try db.text("SELECT value FROM meta WHERE key = ?", [.text(key)]).flatMap { Int64($0) }
            return [built, mark].compactMap { $0 }.filter { $0 <= now }.max()
        }
        let lastFull = try latest(fullKey, marked?.full)
        var full = rule.fullCheckSeconds <= 0 || lastFull.map { Double(now - $0) / 1e9 >= rule.fullCheckSeconds } ?? true
        if !full, let checked = try latest(checkedKey, marked?.checked), Double(now - checked) / 1e9 < rule.trustSeconds,
            try rootsUnchanged(db, roots)
        {
            return true
        }
        var recorded = try db.query("SELECT path, -1, mtime FROM dirs") { Recorded(path: $0.text(0), size: $0.int(1), stamp: $0.int(2)) }
        if recorded.isEmpty { return false }
        if !full, let recent = try recent(db) {
            recorded += recent
        } else {
            full = true
            recorded += try db.query("SELECT file, size, mtime FROM documents") {
                Recorded(path: $0.text(0), size: $0.int(1), stamp: $0.int(2))
            }
        }
        guard allMatch(recorded) else { return false }
        if rule != .everything, let lastFull = full ? now : lastFull {
            UnsyncedFile.save("\(now) \(lastFull)\n", to: checks)
        }
        return true
    }

    /// Whether every root still has the time the last build recorded (a root not recorded:
    /// still missing).
    private static func rootsUnchanged(_ db: Database, _ roots: [String]) throws -> Bool {
        for root in roots {
            let recorded = try db.query("SELECT mtime FROM dirs WHERE path = ?", [.text(root)]) { $0.int(0) }.first
            if FileStamp.of(root)?.mtime != recorded { return false }
        }
        return true
    }

    /// The readers' last check and last full check, from `INDEX.checked`; `nil` when missing or
    /// unreadable.
    private static func readChecks(_ path: String) -> (checked: Int64, full: Int64)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int64($0) }
        return fields.count == 2 ? (fields[0], fields[1]) : nil
    }

    /// Records, inside a build's transaction, that the index matched the disk when the build
    /// began (a build stats every folder or document, as a full check does), and the documents
    /// changed most recently (an unreadable one first: its stamp never matches).
    static func recordBuild(_ db: Database, startedAt start: Int64) throws {
        let recent = try db.query(
            "SELECT file, size, mtime FROM documents ORDER BY mtime = ? DESC, mtime DESC LIMIT ?",
            [.int(IndexBuilder.unreadStamp), .int(Int64(recentCount))]
        ) { [$0.text(0), String($0.int(1)), String($0.int(2))] }
        try db.run("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [.text(recentKey), .text(try IndexBuilder.json(recent))])
        for key in [checkedKey, fullKey] {
            try db.run("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [.text(key), .text(String(start))])
        }
    }

    private struct Recorded {
        var path: String
        /// -1 for a folder (its size is not compared).
        var size: Int64
        var stamp: Int64
    }

    /// The recent documents recorded by the last build; `nil` when none is recorded (an index
    /// written before this rule).
    private static func recent(_ db: Database) throws -> [Recorded]? {
        guard let json = try db.text("SELECT value FROM meta WHERE key = ?", [.text(recentKey)]),
            let rows = try? JSONDecoder().decode([[String]].self, from: Data(json.utf8))
        else { return nil }
        return rows.compactMap { row in
            guard row.count == 3, let size = Int64(row[1]), let stamp = Int64(row[2]) else { return nil }
            return Recorded(path: row[0], size: size, stamp: stamp)
        }
    }

    /// Whether every path still has its recorded stamp (and size): `stat` calls, spread over the
    /// cores on a big index.
    private static func allMatch(_ recorded: [Recorded]) -> Bool {
        let chunks = recorded.count < 2_000 ? 1 : min(ProcessInfo.processInfo.activeProcessorCount * 2, 8)
        let stale = StaleFlag()
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var i = chunk
            while i < recorded.count, !stale.isSet {
                let item = recorded[i]
                if let stamp = FileStamp.of(item.path), stamp.mtime == item.stamp, item.size < 0 || stamp.size == item.size {
                    i += chunks
                } else {
                    stale.set()
                }
            }
        }
        return !stale.isSet
    }
}

/// A flag set from several threads.
private final class StaleFlag: Sendable {
    private let value = Locked(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
