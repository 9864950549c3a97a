import ArgumentParser
import Foundation
import SkillParser

/// `skill parse PATH [--json]`: the knowledge model of a skill, a document or a folder of skills.
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Print the knowledge model of a skill folder, a SKILL.md or another markdown file.",
        discussion: "Diagnostics go to stderr as path:line:col: severity: message [rule-id]. Exit 1 when any is an error."
    )

    @Argument(help: "A skill folder, a SKILL.md, another .md file, or a folder of skills.")
    var path: String

    @Flag(help: "Print the whole model as JSON (with schemaVersion and diagnostics).")
    var json = false

    func run() throws {
        let report: ParseReport
        do {
            report = try ParseReport.parse(path: path)
        } catch {
            throw CLIError(error)
        }
        if json {
            FileHandle.standardOutput.write(try report.json())
            FileHandle.standardOutput.write(Data("\n".utf8))
        } else {
            FileHandle.standardOutput.write(Data(ModelDump.render(report.skills, diagnostics: false).utf8))
        }
        Terminal.printDiagnostics(report.diagnostics)
        if report.hasErrors { throw ExitCode.failure }
    }
}
