import Foundation
import Testing

@testable import SkillIndex

/// The default roots follow the agents table: every agent's folders that exist, project level
/// first, each folder once however many agents read it.
@Suite struct AgentRootsTests {
    @Test func everyAgentsFoldersJoinTheDefaultsInTableOrder() throws {
        let box = try Sandbox()
        let home = box.folder.appendingPathComponent("home")
        let cwd = box.folder.appendingPathComponent("work")
        let folders = [
            "work/.github/skills", "work/.gemini/skills", "work/.agents/skills", "work/.qwen/skills", "work/.opencode/skills",
            "home/.copilot/skills", "home/.qwen/skills", "home/.config/opencode/skills", "home/.gemini/skills",
            "home/.agents/skills", "home/.claude/skills", "elsewhere/codex/skills", "bundled",
        ]
        for path in folders {
            try FileManager.default.createDirectory(at: box.folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        // ~/.codex is moved by CODEX_HOME, as Codex itself reads it.
        let env = [
            "HOME": home.path, "SKILL_BUNDLED": box.folder.appendingPathComponent("bundled").path,
            "CODEX_HOME": box.folder.appendingPathComponent("elsewhere/codex").path,
        ]
        let config = try IndexConfiguration.resolve(environment: env, currentDirectory: cwd)
        let real = { (p: String) in box.folder.appendingPathComponent(p).resolvingSymlinksInPath().path }
        #expect(
            config.roots.map(\.path)
                == [
                    "work/.agents/skills", "work/.gemini/skills", "work/.opencode/skills", "work/.qwen/skills", "work/.github/skills",
                    "home/.claude/skills", "home/.agents/skills", "elsewhere/codex/skills", "home/.gemini/skills",
                    "home/.config/opencode/skills", "home/.qwen/skills", "home/.copilot/skills", "bundled",
                ].map(real))
    }
}
