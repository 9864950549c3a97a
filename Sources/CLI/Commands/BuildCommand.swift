import ArgumentParser
import Foundation
import SkillIndex
import SkillParser

/// `skill build`: brings the index up to date and says what changed.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Index the skills under the roots (incremental: only changed documents are parsed).",
        discussion: "Prints the skills added, updated and removed, then every diagnostic on stderr."
    )

    @OptionGroup var options: IndexOptions

    @Flag(help: "Parse every skill again, even unchanged ones.")
    var full = false

    @Flag(help: "Read every document again, whatever its size and time say, and repair what differs from the index.")
    var verify = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    struct Output: Encodable {
        var schemaVersion = JSONOutput.schemaVersion
        var index: String
        var roots: [String]
        var report: BuildReport
        /// The vector stage's pass after the build; `model` is absent when no model is set up.
        var embedding: EmbeddingReport
        var diagnostics: [Diagnostic]
    }

    func run() throws {
        let index = try options.open()
        let report: BuildReport
        let embedding: EmbeddingReport
        let diagnostics: [Diagnostic]
        do {
            report = try index.refresh(full: full, verify: verify, progress: Progress.reporter())
            Progress.finish()
            // The lexical index is committed: searches use it while the entries are embedded.
            embedding = try index.embed(progress: Progress.embedding(logged: true))
            Progress.finish()
            diagnostics = try index.diagnostics()
        } catch IndexError.busy(let path) {
            // Another build holds the write lock: it brings the index up to date.
            Progress.finish()
            print("another build is writing \(path); it brings the index up to date")
            return
        } catch {
            Progress.finish()
            throw fail(error)
        }
        let config = index.configuration
        if json {
            try JSONOutput.write(
                Output(
                    index: config.indexURL.path, roots: config.roots.map(\.path), report: report, embedding: embedding,
                    diagnostics: diagnostics))
            return
        }
        let style = Style.stdout
        var lines: [String] = []
        for change in report.added { lines.append(style.green("+ \(change.name)") + " (\(count(change.entries, "entry", "entries")))") }
        for change in report.updated { lines.append(style.yellow("~ \(change.name)") + " (\(count(change.entries, "entry", "entries")))") }
        for change in report.removed { lines.append(style.red("- \(change.name)") + " (\(count(change.entries, "entry", "entries")))") }
        let what =
            report.full
            ? "full build"
            : report.verified.map { "verified \(count($0, "document")), repaired \(report.documentsParsed)" }
                ?? (report.changed ? "\(count(report.documentsParsed, "document")) parsed" : "up to date")
        lines.append(
            "\(count(report.skillCount, "skill")), \(count(report.entryCount, "entry", "entries")) (\(what)) in \(config.indexURL.path)")
        if let vectors = Self.vectorsLine(embedding) { lines.append(vectors) }
        if config.roots.isEmpty {
            lines.append("no skills folder found: pass --skills DIR or set SKILL_PATH")
        }
        print(lines.joined(separator: "\n"))
        Terminal.printDiagnostics(diagnostics)
    }

    /// What the embedding pass did, in one line; `nil` without a model (the build then prints
    /// what it printed before there was one; `skill doctor` says how to get it).
    static func vectorsLine(_ report: EmbeddingReport) -> String? {
        guard let model = report.model else { return nil }
        var line = "vectors: \(report.entriesWithVectors) of \(count(report.entriesToEmbed, "entry", "entries")) (\(model)"
        if report.embedded > 0 {
            line += String(
                format: "; %d embedded in %.1f s, %.0f a second", report.embedded, report.seconds,
                Double(report.embedded) / max(report.seconds, 0.001))
        }
        return line + ")"
    }
}
