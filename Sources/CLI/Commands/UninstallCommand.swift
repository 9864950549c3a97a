import ArgumentParser
import Foundation
import SkillPackaging

/// `skill uninstall NAME [--from claude|codex|agents|DIR] [--project]`.
struct UninstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Remove an installed skill."
    )

    @Argument(help: "The skill's name (its folder).")
    var name: String

    @Option(help: "Where it is installed: claude, codex, agents or a folder.")
    var from: String = "claude"

    @Flag(help: "Look in the current project (./.claude/skills …) instead of your home folder.")
    var project = false

    func run() throws {
        let skills = InstallDestination(from).folderHere(project: project)
        SkillInstaller.removeStagingOnSignals()
        do {
            let removed = try SkillInstaller.uninstall(name, from: skills)
            print("Removed \(removed.path)")
        } catch {
            throw CLIError(error)
        }
    }
}
