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
            if report.changed || index.lacksVectorTable {
                embedChanges(index)
            }
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

    /// The entries a read command's refresh added, embedded when they are few
    /// (``inlineEmbeddingBudget``); more are left to `skill build`, and the vector stage uses the
    /// vectors there are. A failure here never fails the read: the search is lexical where
    /// vectors are missing.
    private func embedChanges(_ index: SkillIndex) {
        guard let report = try? index.embed(budget: Self.inlineEmbeddingBudget, progress: Progress.embedding(logged: false)) else { return }
        Progress.finish()
        if report.deferred > 0, isatty(2) != 0 {
            Terminal.printError(
                "note: \(report.deferred) entries have no vectors yet; `skill build` embeds them (search uses the vectors there are)")
        }
    }

    /// The most entries a read command embeds before answering (a few seconds on 2 cores).
    static let inlineEmbeddingBudget = 512
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

    /// Progress of an embedding pass: on a terminal a line rewritten in place; elsewhere (a log, a
    /// CI run) with `logged`, a line after the first batch, then every ten seconds and at the
    /// end, so that a long first pass is never silent (`skill build`), else nothing (a read
    /// command, whose stderr is its own).
    static func embedding(logged: Bool) -> ((EmbeddingProgress) -> Void)? {
        let terminal = isatty(2) != 0
        guard terminal || logged else { return nil }
        var printed: Double?
        return { progress in
            let rate = Double(progress.done) / max(progress.seconds, 0.001)
            let line = String(format: "embedding entries: %d/%d, %.0f a second", progress.done, progress.total, rate)
            if terminal {
                shown = true
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
            } else if printed.map({ progress.seconds - $0 >= 10 || progress.done == progress.total }) ?? true {
                printed = progress.seconds
                FileHandle.standardError.write(Data("\(line)\n".utf8))
            }
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
