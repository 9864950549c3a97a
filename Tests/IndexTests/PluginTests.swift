import Foundation
import SkillParser
import TestSupport
import Testing

@testable import SkillIndex

/// Skills shipped in Claude Code plugins (Fixtures/claude-home: both layouts, two cached
/// versions, and the same skill outside any plugin) are default roots, named `PLUGIN:SKILL`.
@Suite struct PluginTests {
    /// A copy of the fixture HOME, its index and an empty bundled folder, with the environment
    /// that points at them.
    final class Home {
        let folder: URL
        var home: URL { folder.appendingPathComponent("home") }
        var environment: [String: String] {
            [
                "HOME": home.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "CLAUDE_CONFIG_DIR": "",
                "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                "SKILL_BUNDLED": folder.appendingPathComponent("bundled").path,
            ]
        }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("skill-plugins-\(UUID().uuidString)")
                .resolvingSymlinksInPath()
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("bundled"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("work"), withIntermediateDirectories: true)
            let fixture = packageRoot.appendingPathComponent("Tests/IndexTests/Fixtures/claude-home")
            try FileManager.default.copyItem(at: fixture, to: home)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func configuration(plugins: Bool = true) throws -> IndexConfiguration {
            try IndexConfiguration.resolve(
                plugins: plugins, environment: environment, currentDirectory: folder.appendingPathComponent("work"))
        }
    }

    @Test func pluginSkillsFoldersJoinTheDefaultRoots() throws {
        let box = try Home()
        let plugins = box.home.appendingPathComponent(".claude/plugins")
        #expect(
            try box.configuration().roots.map(\.path) == [
                box.home.appendingPathComponent(".claude/skills").path,
                plugins.appendingPathComponent("marketplaces/demo-market/plugins/docs-kit/skills").path,
                plugins.appendingPathComponent("cache/demo-market/swift-helper/1.2.0/skills").path,
                box.folder.appendingPathComponent("bundled").path,
            ])
        #expect(
            try box.configuration(plugins: false).roots.map(\.path) == [
                box.home.appendingPathComponent(".claude/skills").path, box.folder.appendingPathComponent("bundled").path,
            ])
    }

    @Test func pluginSkillsAreNamedAfterTheirPluginAndFound() throws {
        let box = try Home()
        let index = SkillIndex(configuration: try box.configuration())
        let report = try index.refresh()
        #expect(report.added.map(\.name) == ["docs-kit:release-notes", "state-review", "swift-helper:state-review"])
        #expect(report.diagnostics.isEmpty)
        let skills = try index.skills()
        #expect(skills.map(\.name) == ["docs-kit:release-notes", "state-review", "swift-helper:state-review"])
        #expect(
            skills.map(\.plugin) == [
                PluginSummary(name: "docs-kit", version: nil), nil, PluginSummary(name: "swift-helper", version: "1.2.0"),
            ])
        let hit = try #require(try index.search("release notes changelog").results.first)
        #expect(hit.skill == "docs-kit:release-notes")
        #expect(hit.id.hasPrefix("docs-kit:release-notes/SKILL#"))
        #expect(hit.plugin == PluginSummary(name: "docs-kit", version: nil))
        let versioned = try #require(try index.search("ownership", skill: "swift-helper:state-review").results.first)
        #expect(versioned.plugin == PluginSummary(name: "swift-helper", version: "1.2.0"))
        #expect(try index.search("ownership", skill: "state-review").results.first?.plugin == nil)
        // Unchanged, nothing is parsed again (the plugin prefix survives the incremental path).
        let again = try index.refresh()
        #expect(!again.changed)
        #expect(try index.skills().map(\.name) == skills.map(\.name))
    }

    /// The same skill in a plugin and in ~/.claude/skills: both are indexed under their own
    /// names, and their identical entries are one result that lists the other place.
    @Test func theSameSkillInAPluginAndInClaudeSkills() throws {
        let box = try Home()
        let index = SkillIndex(configuration: try box.configuration())
        try index.refresh()
        let results = try index.search("ownership checklist", kind: .checklist).results
        #expect(results.count == 1)
        let hit = try #require(results.first)
        #expect(Set([hit.skill] + (hit.alsoAt ?? []).map(\.skill)) == ["state-review", "swift-helper:state-review"])
        #expect(try index.search("quarantine").results.isEmpty)
    }
}
