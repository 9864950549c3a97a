import Foundation

/// The ids of the last search's results, kept beside the index (`INDEX.last-search`, one id a
/// line) so that `skill show N` opens the Nth, as `gh` numbers its lists.
struct LastSearch {
    let file: URL

    init(index: URL) {
        file = URL(fileURLWithPath: index.path + ".last-search")
    }

    /// Replaces the kept ids; a folder that cannot be written only loses the numbering.
    ///
    /// Written beside the file with one `write` and renamed over it, without an `fsync`
    /// (Foundation's `Data.write` syncs, 1-20 ms on a busy disk: docs/benchmarks.md): the
    /// numbering need not outlive a crash.
    func save(_ ids: [String]) {
        let temporary = file.path + ".\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let text = ids.map { $0 + "\n" }.joined()
        let written = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        if written != text.utf8.count || rename(temporary, file.path) != 0 { unlink(temporary) }
    }

    /// The id of the `rank`th result (1-based) of the last search.
    func id(rank: Int) throws -> String {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw CLIError(message: "no search to number: run `skill search QUERY` first, then `skill show N` opens its Nth result")
        }
        let ids = text.split(separator: "\n").map(String.init)
        guard rank >= 1, rank <= ids.count else {
            throw CLIError(message: "the last search has \(count(ids.count, "result")); `skill show N` takes N from 1 to \(ids.count)")
        }
        return ids[rank - 1]
    }
}
