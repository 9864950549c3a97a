import Foundation
import SkillIndex

/// The ids of the last search's results, kept beside the index (`INDEX.last-search`, one id a
/// line) so that `skill show N` opens the Nth, as `gh` numbers its lists.
struct LastSearch {
    let file: URL

    init(index: URL) {
        file = URL(fileURLWithPath: index.path + ".last-search")
    }

    /// Replaces the kept ids (a crash may lose them: ``UnsyncedFile``); a folder that cannot be
    /// written only loses the numbering.
    func save(_ ids: [String]) {
        UnsyncedFile.save(ids.map { $0 + "\n" }.joined(), to: file.path, replacing: true)
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
