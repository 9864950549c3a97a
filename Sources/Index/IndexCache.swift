import Foundation

/// The cache folder of default index files (one per set of roots): pruning the ones no longer used.
public enum IndexCache {
    /// How long an index may go unused before ``prune(folder:keeping:now:)`` removes it: 30 days.
    public static let unusedLimit: TimeInterval = 30 * 24 * 3600

    /// Removes from `folder` the index files (`index-*.sqlite`, with SQLite's files, the last
    /// search and the readers' freshness checks beside them) not used for ``unusedLimit``, and
    /// temporary files of builds whose process is gone. An index is used when a command opens it (its time is renewed once a day).
    /// - Parameters:
    ///   - keeping: an index never removed (the one in use).
    ///   - now: the time to measure from.
    /// - Returns: the paths removed, sorted.
    public static func prune(folder: URL, keeping: URL? = nil, now: Date = Date()) -> [String] {
        var removed = TemporaryIndexFiles.sweep(folder: folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix("index-") && name.hasSuffix(".sqlite") {
            let index = folder.appendingPathComponent(name)
            guard index.path != keeping?.standardizedFileURL.path,
                let used = (try? FileManager.default.attributesOfItem(atPath: index.path))?[.modificationDate] as? Date,
                now.timeIntervalSince(used) > unusedLimit
            else { continue }
            for suffix in TemporaryIndexFiles.suffixes + [".last-search", Freshness.checksSuffix]
            where FileManager.default.fileExists(atPath: index.path + suffix) {
                if (try? FileManager.default.removeItem(atPath: index.path + suffix)) != nil { removed.append(index.path + suffix) }
            }
        }
        return removed.sorted()
    }
}
