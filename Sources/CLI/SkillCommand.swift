import ArgumentParser
import Foundation

/// `skill`: turns SKILL.md skills into a searchable knowledge index.
@main
struct SkillCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skill",
        abstract: "Parse, index and search SKILL.md skills.",
        version: "0.1.0",
        subcommands: [
            ParseCommand.self, ValidateCommand.self, LintCommand.self, PackCommand.self, InstallCommand.self,
            UninstallCommand.self, AgentsCommand.self, PromptCommand.self, BuildCommand.self, SearchCommand.self, ShowCommand.self,
            ListCommand.self, CheckCommand.self, ServeCommand.self, DoctorCommand.self,
        ]
    )

    /// Runs the command (a plain `skill search WORD…` read without the parser:
    /// ``SearchCommand/plain(_:)``); a ``CLIError`` becomes one `error: …` line on stderr and exit 1, the
    /// rest is swift-argument-parser's (help, usage errors with exit 64). Synchronous: no command
    /// awaits, and an async `main` started the concurrency runtime's executor and asked the Swift
    /// runtime whether the command conforms to `AsyncParsableCommand` (a scan of every protocol
    /// conformance in the binary) on each run.
    static func main() {
        do {
            var command: ParsableCommand
            if let search = SearchCommand.plain(Array(CommandLine.arguments.dropFirst())) {
                command = search
            } else {
                command = try parseAsRoot()
            }
            try command.run()
        } catch let error as CLIError {
            Terminal.printError("error: \(error.description)")
            Foundation.exit(EXIT_FAILURE)
        } catch {
            exit(withError: error)
        }
    }
}
