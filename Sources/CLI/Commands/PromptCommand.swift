import ArgumentParser
import Foundation
import SkillParser

/// `skill prompt [PATH…]`: the `<available_skills>` XML for an agent's system prompt.
struct PromptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompt",
        abstract: "Print the <available_skills> XML block agents put in their system prompt.",
        discussion: "Without paths: the skills in SKILL_PATH (colon-separated), else ./skills and every agent's skill folders ('skill agents' lists them): ./.claude/skills, ./.agents/skills, … ~/.claude/skills, ~/.agents/skills, ~/.codex/skills …"
    )

    @Argument(help: "Skill folders, SKILL.md files or folders of skills.")
    var paths: [String] = []

    func run() throws {
        var diagnostics: [Diagnostic] = []
        let output: String
        do {
            output = try AvailableSkills.render(paths: paths.isEmpty ? Self.defaultRoots() : paths, diagnostics: &diagnostics)
        } catch {
            throw CLIError(error)
        }
        print(output)
        Terminal.printDiagnostics(diagnostics)
        if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode.failure }
    }

    /// The skill roots that exist, in DESIGN.md section 3's order.
    static func defaultRoots() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SKILL_PATH"], !path.isEmpty {
            return path.split(separator: ":").map(String.init).filter { FileManager.default.fileExists(atPath: $0) }
        }
        return (["skills"] + Agent.skillFolders(.here).map(\.path)).filter { FileManager.default.fileExists(atPath: $0) }
    }
}
