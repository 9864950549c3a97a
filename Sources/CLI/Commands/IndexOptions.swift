import ArgumentParser
import Foundation
import SkillIndex

/// The options every index command shares: which roots, which index file.
struct IndexOptions: ParsableArguments {
    @Option(
        name: .customLong("skills"),
        help: ArgumentHelp(
            "A folder of skills to index (repeatable). Default: SKILL_PATH, else ./skills, every agent's skill folders ('skill agents' lists them: ./.claude/skills, ./.agents/skills, … ~/.claude/skills, ~/.agents/skills, ~/.codex/skills …) and the bundled skills.",
            valueName: "dir"))
    var skills: [String] = []

    @Option(
        help: ArgumentHelp(
            "The index file. Default: SKILL_INDEX, else ${XDG_CACHE_HOME:-~/.cache}/skill/index-<hash of the roots>.sqlite.",
            valueName: "path"))
    var index: String?

    @Flag(help: "Leave out the skills of Claude Code plugins (~/.claude/plugins) from the default roots.")
    var noPlugins = false

    /// The index these options name; an explicit root that does not exist is an error.
    func open() throws -> SkillIndex {
        do {
            return SkillIndex(configuration: try IndexConfiguration.resolve(skills: skills, index: index, plugins: !noPlugins))
        } catch {
            throw fail(error)
        }
    }

    /// The index, refreshed when the skills changed since the last build (checked under the
    /// readers' ``FreshnessRule``: `SKILL_TRUST_SECONDS`).
    func openFresh() throws -> SkillIndex {
        let index = try open()
        do {
            let report = try index.refresh(waitForWriter: false, freshness: .reader(), progress: Progress.reporter())
            Progress.finish()
            Terminal.printDiagnostics(report.diagnostics)
        } catch let error as IndexError where error.leavesIndexReadable && index.exists {
            // A reader never fails because a writer is busy or the index cannot be written: it
            // answers from the index as last committed, saying why when the index may stay
            // behind (a busy writer brings it up to date itself).
            Progress.finish()
            if case .unwritable(let path, let why) = error {
                Terminal.printWarning("cannot refresh the index \(path): \(why); answering from the index as last committed")
            }
        } catch {
            Progress.finish()
            throw fail(error)
        }
        return index
    }
}

/// A progress line on stderr for builds that take more than a moment (only on a terminal).
enum Progress {
    nonisolated(unsafe) private static var shown = false

    static func reporter() -> ((BuildProgress) -> Void)? {
        guard isatty(2) != 0 else { return nil }
        let start = Date()
        return { progress in
            guard Date().timeIntervalSince(start) > 0.3 else { return }
            shown = true
            FileHandle.standardError.write(Data("\r\u{1B}[Kindexing skills: \(progress.skillsDone)/\(progress.skillsTotal)".utf8))
        }
    }

    static func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}

/// JSON output: one document with a top-level `schemaVersion`.
enum JSONOutput {
    static let schemaVersion = 1

    static func write<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }

    /// Writes `value` after `patch` added fields of the command's own to its JSON object (a
    /// library type's encoding stays the library's).
    static func write<T: Encodable>(_ value: T, patch: (inout [String: Any]) -> Void) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var document = try JSONSerialization.jsonObject(with: encoder.encode(value)) as? [String: Any] else {
            return try write(value)
        }
        patch(&document)
        var data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }
}

/// The error to throw from a command: `SkillCommand.main` prints a ``CLIError`` as one
/// `error: …` line on stderr and exits 1.
func fail(_ error: any Error) -> any Error {
    if error is ExitCode || error is CLIError { return error }
    return CLIError(error)
}
