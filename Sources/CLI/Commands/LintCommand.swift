import ArgumentParser
import Foundation
import SkillParser

/// `skill lint PATH…`: quality checks with a 0-100 score.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check skills for quality: triggers, length, links, fences, sections, anti-patterns.",
        discussion:
            "Findings go to stderr as path:line:col: severity: message [rule-id]; one score line per skill to stdout. Exit 1 when any finding is an error or a score is under --min-score. Rules: docs/packaging.md."
    )

    @Argument(help: "Skill folders, SKILL.md files or folders of skills (walked).")
    var paths: [String] = ["."]

    @Option(help: "Fail when a skill scores below this (0-100).")
    var minScore: Int = 0

    @Flag(help: "Print the report as JSON (with schemaVersion).")
    var json = false

    func validate() throws {
        guard (0...100).contains(minScore) else { throw ValidationError("--min-score must be between 0 and 100, not \(minScore)") }
    }

    func run() throws {
        let report: LintReport
        do {
            report = try LintReport.lint(paths: paths)
        } catch {
            throw CLIError(error)
        }
        if json {
            FileHandle.standardOutput.write(try report.json() + Data("\n".utf8))
        } else {
            Terminal.printDiagnostics(report.diagnostics)
            for skill in report.skills { print("\(skill.score)/100 \(skill.name) (\(skill.path))") }
        }
        if report.hasErrors || report.skills.contains(where: { $0.score < minScore }) { throw ExitCode.failure }
    }
}
