import ArgumentParser
import Foundation
import SkillParser

/// `skill validate PATH…`: the Agent Skills specification's rules, exactly.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check skills against the Agent Skills specification.",
        discussion:
            "Problems go to stderr as path:line:col: severity: message [rule-id]; a summary line to stdout. Exit 1 when any is an error. Rules: docs/packaging.md."
    )

    @Argument(help: "Skill folders, SKILL.md files or folders of skills (walked).")
    var paths: [String] = ["."]

    @Option(name: .customLong("allow-field"), help: "Accept this non-specification frontmatter field without a warning (repeatable).")
    var allowedFields: [String] = []

    @Option(help: "Add a platform's upload rules: claude.")
    var target: String?

    @Flag(help: "Report non-specification fields as errors, as the reference validator does.")
    var strict = false

    @Flag(help: "Print the report as JSON (with schemaVersion).")
    var json = false

    func validate() throws {
        if let target, ValidationOptions.Target(rawValue: target) == nil {
            throw ValidationError("unknown target '\(target)'; the targets are: claude")
        }
    }

    func run() throws {
        let options = ValidationOptions(
            allowedFields: Set(allowedFields), target: target.flatMap(ValidationOptions.Target.init), strict: strict)
        let report: ValidationReport
        do {
            report = try ValidationReport.validate(paths: paths, options: options)
        } catch {
            throw CLIError(error)
        }
        if json {
            FileHandle.standardOutput.write(try report.json() + Data("\n".utf8))
        } else {
            Terminal.printDiagnostics(report.diagnostics)
            print(report.summary)
        }
        if report.hasErrors { throw ExitCode.failure }
    }
}
