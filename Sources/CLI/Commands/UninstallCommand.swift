import ArgumentParser
import Foundation
import SkillPackaging

/// `skill uninstall NAME [--from AGENT[,AGENT…]|all-detected|DIR] [--project]`.
struct UninstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Remove an installed skill."
    )

    @Argument(help: "The skill's name (its folder).")
    var name: String

    @Option(help: "Where it is installed, as for install's --to: an agent, several separated by commas, all-detected, or a folder path.")
    var from: String = "claude-code"

    @Flag(help: "Look in the current project (./.claude/skills …) instead of your home folder.")
    var project = false

    func validate() throws {
        _ = try InstallDestination.option(from)
    }

    /// Removes the skill from every folder the destination names (the folders install wrote
    /// to); an error only when it was in none of them.
    func run() throws {
        let targets = try InstallDestination.option(from).targetsHere(project: project)
        SkillInstaller.removeStagingOnSignals()
        var missing: [String] = []
        for target in targets {
            do {
                let removed = try SkillInstaller.uninstall(name, from: target.folder)
                print("Removed \(removed.path)")
            } catch PackagingError.notInstalled(let path) {
                missing.append(path)
            } catch {
                throw CLIError(error)
            }
        }
        if missing.count == targets.count { throw CLIError(PackagingError.notInstalled(missing.joined(separator: ", "))) }
    }
}
