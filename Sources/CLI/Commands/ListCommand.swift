import ArgumentParser
import Foundation
import SkillIndex

/// `skill list`: the indexed skills.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the indexed skills with their description, root and entry counts."
    )

    @OptionGroup var options: IndexOptions

    @Flag(help: "Print the skills as JSON.")
    var json = false

    struct Output: Encodable {
        var schemaVersion = JSONOutput.schemaVersion
        var skills: [SkillSummary]
    }

    func run() throws {
        let index = try options.openFresh()
        let skills: [SkillSummary]
        do { skills = try index.skills() } catch { throw fail(error) }
        if json {
            try JSONOutput.write(Output(skills: skills))
            return
        }
        let style = Style.stdout
        let width = Style.width
        var out: [String] = []
        for skill in skills {
            let total = skill.entries.values.reduce(0, +)
            let kinds = skill.entries.filter { $0.key != "skill" && $0.key != "section" }.sorted { $0.key < $1.key }
                .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            let plugin = skill.plugin.map { "plugin \($0.name)" + ($0.version.map { " \($0)" } ?? "") + ", " } ?? ""
            out.append(
                style.bold(skill.name) + "  " + style.dim(plugin + count(total, "entry", "entries") + (kinds.isEmpty ? "" : ": \(kinds)")))
            if !skill.description.isEmpty {
                out.append("  " + skill.description.split(whereSeparator: \.isNewline).joined(separator: " ").clipped(width - 2))
            }
            out.append("  " + style.dim(skill.folder.path))
        }
        if skills.isEmpty { out.append(index.configuration.noSkillsMessage) }
        print(out.joined(separator: "\n"))
    }
}
