import Foundation

/// The small files kept beside an index (`INDEX.checked`, `INDEX.last-search`), written with
/// one `write` and no `fsync`: Foundation's `Data.write` syncs, 1-20 ms on a busy disk
/// (docs/benchmarks.md), and losing one of them in a crash costs only a full freshness check or
/// the numbering of the last search.
public enum UnsyncedFile {
    /// Writes `text` over `path`. With `replacing`, it is written to `path.PID` and renamed over
    /// `path`, so a reader sees the old text or the new, never part of it. Whether it was written;
    /// a failed replacement leaves no temporary file.
    @discardableResult
    public static func save(_ text: String, to path: String, replacing: Bool = false) -> Bool {
        let target = replacing ? path + ".\(getpid())" : path
        let fd = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        let written = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        let whole = written == text.utf8.count
        guard replacing else { return whole }
        if whole, rename(target, path) == 0 { return true }
        unlink(target)
        return false
    }
}
