import Foundation
import Testing

/// `--to AGENT`, `--to all-detected`, `uninstall --from` and `skill agents` against a throwaway
/// HOME holding each agent's configuration folder.
@Suite struct AgentInstallTests {
    static let skill = "---\nname: tool\ndescription: A tool. Use when testing.\n---\n"
    static let bytes = Data(skill.utf8).count

    /// A HOME where the agents in `detected` are installed (their configuration folders exist),
    /// with a skill to install in `src/tool` and an empty project in `project`.
    static func makeHome(detected: [String]) throws -> URL {
        let home = try Support.temporaryFolder()
        try Support.write(["src/tool/SKILL.md": skill, "project/README.md": "x"], in: home)
        for folder in detected {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        return home
    }

    /// The agents' variables pointed inside the test's HOME (or unset), whatever the machine has.
    static func environment(_ home: URL) -> [String: String] {
        ["XDG_CONFIG_HOME": home.appendingPathComponent(".config").path, "CLAUDE_CONFIG_DIR": "", "CODEX_HOME": ""]
    }

    static func skill(_ arguments: [String], home: URL, cwd: URL? = nil) throws -> Support.Run {
        try Support.skill(arguments, cwd: cwd ?? home, home: home, environment: environment(home))
    }

    static let documented = [
        ("claude-code", ".claude/skills", ".claude/skills"), ("claude", ".claude/skills", ".claude/skills"),
        ("agents", ".agents/skills", ".agents/skills"), ("codex", ".codex/skills", ".agents/skills"),
        ("gemini-cli", ".gemini/skills", ".agents/skills"), ("opencode", ".config/opencode/skills", ".agents/skills"),
        ("qwen-code", ".qwen/skills", ".qwen/skills"), ("cursor", ".cursor/skills", ".agents/skills"),
        ("github-copilot", ".copilot/skills", ".agents/skills"),
    ]

    @Test(arguments: documented.map(\.0))
    func installLandsInTheDocumentedFolderAndUninstallTakesItAway(_ agent: String) throws {
        let home = try Self.makeHome(detected: [])
        defer { try? FileManager.default.removeItem(at: home) }
        let (_, user, project) = try #require(Self.documented.first { $0.0 == agent })
        let installed = try Self.skill(["install", "src/tool", "--to", agent], home: home)
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.stdout.hasSuffix("Installed \(home.path)/\(user)/tool\n"))
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("\(user)/tool/SKILL.md").path))
        let removed = try Self.skill(["uninstall", "tool", "--from", agent], home: home)
        #expect(removed.stdout == "Removed \(home.path)/\(user)/tool\n")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("\(user)/tool").path))

        let cwd = home.appendingPathComponent("project")
        let inProject = try Self.skill(["install", "../src/tool", "--to", agent, "--project"], home: home, cwd: cwd)
        #expect(inProject.stdout.hasSuffix("Installed \(cwd.path)/\(project)/tool\n"))
        #expect(FileManager.default.fileExists(atPath: cwd.appendingPathComponent("\(project)/tool/SKILL.md").path))
    }

    @Test func allDetectedInstallsOncePerFolderAndUninstallRemovesExactlyThat() throws {
        let home = try Self.makeHome(detected: [
            ".claude/skills", ".codex/skills", ".gemini/skills", ".config/opencode/skills", ".cursor", ".copilot/skills", ".agents/skills",
        ])
        defer { try? FileManager.default.removeItem(at: home) }
        let before = Support.snapshot(home)
        let run = try Self.skill(["install", "src/tool", "--to", "all-detected"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        // OpenCode, Cursor and Copilot read ~/.claude/skills: installing there serves them; Qwen Code is not installed here.
        #expect(
            run.stdout == """
                Installing 'tool' into 3 folders: 1 file, \(Self.bytes) bytes
                  scripts: none
                  allowed-tools: none
                Installed \(home.path)/.claude/skills/tool (for claude-code, opencode, cursor, github-copilot)
                Installed \(home.path)/.codex/skills/tool (for codex)
                Installed \(home.path)/.gemini/skills/tool (for gemini-cli)

                """)
        let removed = try Self.skill(["uninstall", "tool", "--from", "all-detected"], home: home)
        #expect(removed.status == 0)
        #expect(
            removed.stdout == """
                Removed \(home.path)/.claude/skills/tool
                Removed \(home.path)/.codex/skills/tool
                Removed \(home.path)/.gemini/skills/tool

                """)
        #expect(Support.snapshot(home) == before)
        let again = try Self.skill(["uninstall", "tool", "--from", "all-detected"], home: home)
        #expect(again.status == 1)
        #expect(again.stderr.hasPrefix("error: \(home.path)/.claude/skills/tool, \(home.path)/.codex/skills/tool, "))
    }

    @Test func severalAgentsShareAFolderTheyAllRead() throws {
        let home = try Self.makeHome(detected: [])
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try Self.skill(["install", "src/tool", "--to", "claude-code,opencode"], home: home)
        #expect(run.stdout.hasSuffix("Installed \(home.path)/.claude/skills/tool (for claude-code, opencode)\n"))
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent(".config/opencode").path))
        // At project level Codex and Gemini CLI both use .agents/skills: one copy.
        let cwd = home.appendingPathComponent("project")
        let project = try Self.skill(["install", "../src/tool", "--to", "codex,gemini-cli", "--project"], home: home, cwd: cwd)
        #expect(project.stdout.hasSuffix("Installed \(cwd.path)/.agents/skills/tool (for codex, gemini-cli)\n"))
    }

    @Test func anUnknownAgentIsAUsageErrorAndWritesNothing() throws {
        let home = try Self.makeHome(detected: [])
        defer { try? FileManager.default.removeItem(at: home) }
        let before = Support.snapshot(home)
        for arguments in [["install", "src/tool", "--to", "cluade"], ["uninstall", "tool", "--from", "claude-code,gemini"]] {
            let run = try Self.skill(arguments, home: home)
            #expect(run.status == 64)
            let name = arguments[3] == "cluade" ? "cluade" : "gemini"
            #expect(
                run.stderr.hasPrefix(
                    "Error: '\(name)' is neither an agent nor a path; give one of claude-code, agents, codex, gemini-cli, opencode, qwen-code, cursor, github-copilot, all-detected, or a folder path (with a '/', or starting with '.' or '~')\n"
                ))
        }
        #expect(Support.snapshot(home) == before)
        // A path is still a path, even a relative one.
        let path = try Self.skill(["install", "src/tool", "--to", "./mine"], home: home)
        #expect(path.stdout.hasSuffix("Installed \(home.path)/mine/tool\n"))
        let none = try Self.skill(["install", "src/tool", "--to", "all-detected"], home: home)
        #expect(none.status == 1)
        #expect(
            none.stderr
                == "error: no agent detected (none of their configuration folders exists); name an agent with --to, or run 'skill agents'\n"
        )
    }

    struct Agents: Decodable {
        struct Folder: Decodable {
            var path: String
            var skills: Int?
        }
        struct Agent: Decodable {
            var name: String
            var detected: Bool
            var user: Folder
            var project: Folder
        }
        var schemaVersion: Int
        var agents: [Agent]
    }

    @Test func agentsReportsTheFixture() throws {
        let home = try Self.makeHome(detected: [".claude/skills", ".qwen"])
        defer { try? FileManager.default.removeItem(at: home) }
        let project = home.appendingPathComponent("project")
        #expect(try Self.skill(["install", "src/tool"], home: home).status == 0)
        #expect(try Self.skill(["install", "../src/tool", "--to", "codex", "--project"], home: home, cwd: project).status == 0)
        let run = try Self.skill(["agents", "--json"], home: home, cwd: project)
        #expect(run.status == 0)
        let report = try JSONDecoder().decode(Agents.self, from: Data(run.stdout.utf8))
        #expect(
            report.agents.map(\.name) == [
                "claude-code", "agents", "codex", "gemini-cli", "opencode", "qwen-code", "cursor", "github-copilot",
            ])
        #expect(report.agents.filter(\.detected).map(\.name) == ["claude-code", "qwen-code"])
        #expect(report.agents.map(\.user.skills) == [1, nil, nil, nil, nil, nil, nil, nil])
        #expect(report.agents.map(\.project.skills) == [nil, 1, 1, 1, 1, nil, 1, 1])
        #expect(report.agents[4].user.path == home.appendingPathComponent(".config/opencode/skills").path)
        let text = try Self.skill(["agents"], home: home, cwd: project)
        #expect(
            text.stdout.hasPrefix(
                """
                claude-code  Claude Code  detected
                  user:    \(home.path)/.claude/skills  1 skill
                  project: \(project.path)/.claude/skills  missing
                agents  shared .agents/skills  shared folder
                  user:    \(home.path)/.agents/skills  missing
                  project: \(project.path)/.agents/skills  1 skill

                """))
    }
}
