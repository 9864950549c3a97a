import ArgumentParser
import Foundation
import SkillIndex

/// `skill doctor`: where the skills are looked for, the index file, what it holds, what is wrong.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Show the folders searched for skills, the index file, its skill and entry counts, and what is wrong.",
        discussion: "Exit 1 when something is wrong (each problem says what to do)."
    )

    @OptionGroup var options: IndexOptions

    @Flag(help: "First remove the cached indexes not used for 30 days and the temporary files of interrupted builds.")
    var prune = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    struct Output: Encodable {
        var schemaVersion = JSONOutput.schemaVersion
        var pruned: [String]?
        var health: IndexHealth
        /// Skills over the MCP Skills extension's limits (512 files, 16 MiB), which `skill serve`
        /// leaves out of `skills/list`: why, per skill. Absent when there is none.
        var notServedAsSkills: [String]?
    }

    func run() throws {
        let index = try options.open()
        let pruned = prune ? IndexCache.prune(folder: IndexConfiguration.cacheFolder(), keeping: index.configuration.indexURL) : nil
        let health = index.health(bundledSkills: IndexConfiguration.bundledSkills())
        let overLimits = ((try? index.manifests()) ?? []).compactMap(\.limitProblem)
        if json {
            try JSONOutput.write(Output(pruned: pruned, health: health, notServedAsSkills: overLimits.isEmpty ? nil : overLimits))
        } else {
            if let pruned {
                print(pruned.isEmpty ? "pruned: nothing to remove" : pruned.map { "pruned: \($0)" }.joined(separator: "\n"))
            }
            print(Self.render(health, style: .stdout))
            for problem in overLimits { print(Style.stdout.yellow("not served over MCP: ") + problem) }
        }
        if !health.problems.isEmpty { throw ExitCode.failure }
    }

    static func render(_ health: IndexHealth, style: Style) -> String {
        var out = ["folders searched for skills:"]
        for folder in health.folders {
            let state = !folder.exists ? style.red("missing") : count(folder.skills, "skill")
            out.append("  \(folder.path)  \(state)")
        }
        if health.folders.isEmpty { out.append("  (none)") }
        var file = "index: \(health.index.path)"
        if let bytes = health.index.bytes {
            file += "  " + ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
            if let modified = health.index.modified { file += ", last used \(modified)" }
        } else {
            file += "  " + style.red("not built")
        }
        out.append(file)
        out.append("indexed: " + count(health.skillCount, "skill") + ", " + count(health.entryCount, "entry", "entries"))
        out.append(
            "bundled skills: " + (health.bundledSkills ?? style.yellow("not found (install with `make install`, or set SKILL_BUNDLED)")))
        out.append("semantic search: " + (health.semantic.model == nil ? style.yellow(health.semantic.summary) : health.semantic.summary))
        out.append(
            health.problems.isEmpty
                ? style.green("no problem found") : health.problems.map { style.red("problem: ") + $0 }.joined(separator: "\n"))
        return out.joined(separator: "\n")
    }
}
