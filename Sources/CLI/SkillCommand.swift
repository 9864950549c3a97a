import ArgumentParser

/// `skill`: turns SKILL.md skills into a searchable knowledge index.
@main
struct SkillCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skill",
        abstract: "Parse, index and search SKILL.md skills.",
        version: "0.1.0",
        subcommands: [ParseCommand.self, ValidateCommand.self, LintCommand.self, PackCommand.self, InstallCommand.self, UninstallCommand.self, PromptCommand.self]
    )
}
