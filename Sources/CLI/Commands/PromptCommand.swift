import ArgumentParser
import Foundation
import SkillIndex
import SkillParser

/// `skill prompt [PATH…]`: the `<available_skills>` XML for an agent's system prompt.
struct PromptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompt",
        abstract: "Print the <available_skills> XML block agents put in their system prompt.",
        discussion:
            "Without paths: the skills of the roots search, list and serve use: SKILL_PATH (colon-separated), else ./skills, every agent's skill folders ('skill agents' lists them), Claude Code plugins' skills and the bundled skills."
    )

    @Argument(help: "Skill folders, SKILL.md files or folders of skills.")
    var paths: [String] = []

    @Flag(help: "Print the skills as JSON (name, description, location).")
    var json = false

    struct Output: Encodable {
        var schemaVersion = JSONOutput.schemaVersion
        var skills: [AvailableSkills.Skill]
    }

    func run() throws {
        var diagnostics: [Diagnostic] = []
        let skills: [AvailableSkills.Skill]
        do {
            let roots = paths.isEmpty ? try IndexConfiguration.resolve().roots.map(\.path) : paths
            skills = try AvailableSkills.list(paths: roots, diagnostics: &diagnostics)
        } catch {
            throw CLIError(error)
        }
        if json {
            try JSONOutput.write(Output(skills: skills))
        } else {
            print(AvailableSkills.render(skills))
        }
        Terminal.printDiagnostics(diagnostics)
        if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode.failure }
    }
}
