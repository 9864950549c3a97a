import ArgumentParser
import Foundation
import SkillPackaging
import SkillParser

/// `skill install SOURCE [--to AGENT[,AGENT…]|all-detected|DIR] [--project] [--force] [--yes] [--dry-run]`.
struct InstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install a skill from a zip, a .skill archive or a folder, checking every entry first.",
        discussion:
            "Refuses paths with '..', absolute paths, backslashes, symbolic links, duplicates, nested archives, more than 1,000 entries, more than 50 MB or a compression ratio over 100, and anything but one top-level folder holding a valid SKILL.md. Nothing is written until every check passes; the skill is unpacked beside its destination and renamed into place."
    )

    @Argument(help: "A .zip or .skill archive, or a skill folder.")
    var source: String

    @Option(
        help:
            "Where to install: an agent ('skill agents' lists them: claude-code, codex, gemini-cli …), several separated by commas, all-detected, or a folder path (with a '/', or starting with '.' or '~')."
    )
    var to: String = "claude-code"

    @Flag(help: "Install into the current project (./.claude/skills …) instead of your home folder.")
    var project = false

    @Flag(help: "Replace an installed skill of the same name (swapped atomically).")
    var force = false

    @Flag(name: .shortAndLong, help: "Install a skill that brings scripts without asking (needed when stdin is not a terminal).")
    var yes = false

    @Flag(help: "Check the skill and list what would be installed; write nothing.")
    var dryRun = false

    func validate() throws {
        _ = try InstallDestination.option(to)
    }

    func run() throws {
        let targets = try InstallDestination.option(to).targetsHere(project: project)
        SkillInstaller.removeStagingOnSignals()
        do {
            let plan = try SkillInstaller.inspect(URL(fileURLWithPath: source).standardizedFileURL, display: source)
            if plan.refused {
                Terminal.printDiagnostics(plan.diagnostics)
                Terminal.printError("error: \(source): not installed because of the problems above; nothing was written")
                throw ExitCode.failure
            }
            for target in targets where !force {
                let folder = target.folder.appendingPathComponent(plan.name)
                if FileManager.default.fileExists(atPath: folder.path) { throw PackagingError.alreadyInstalled(folder.path) }
            }
            let into = targets.count == 1 ? targets[0].folder.path : count(targets.count, "folder")
            print("Installing '\(plan.name)' into \(into): \(count(plan.files.count, "file")), \(count(plan.uncompressedBytes, "byte"))")
            print("  scripts: \(plan.scripts.isEmpty ? "none" : plan.scripts.joined(separator: ", "))")
            print("  allowed-tools: \(plan.allowedTools.isEmpty ? "none" : plan.allowedTools.joined(separator: " "))")
            if dryRun {
                print("Dry run: nothing was written")
                return
            }
            if !plan.scripts.isEmpty, !yes { try confirmScripts(plan.scripts.count) }
            for (number, target) in targets.enumerated() {
                let outcome = try SkillInstaller.install(plan, into: target.folder, force: force)
                if number == 0 { Terminal.printDiagnostics(outcome.diagnostics) }
                guard let installed = outcome.installed else {
                    Terminal.printError("error: \(source): not installed because the skill is invalid (above); nothing was written")
                    throw ExitCode.failure
                }
                let served = targets.count > 1 || target.agents.count > 1 ? " (for \(target.agents.joined(separator: ", ")))" : ""
                print("\(outcome.replaced ? "Replaced" : "Installed") \(installed.path)\(served)")
            }
        } catch let error as ExitCode {
            throw error
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(error)
        }
    }

    /// Scripts are code an agent may run: asks on a terminal, refuses without `--yes` elsewhere.
    private func confirmScripts(_ scripts: Int) throws {
        let what = count(scripts, "script")
        guard isatty(0) != 0 else {
            throw CLIError(
                message:
                    "\(source) brings \(what) an agent may run; install with --yes to accept them (--dry-run to look first); nothing was written"
            )
        }
        FileHandle.standardError.write(Data("Install it with its \(what)? [y/N] ".utf8))
        let answer = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            throw CLIError(message: "\(source): not installed (declined); nothing was written")
        }
    }
}
