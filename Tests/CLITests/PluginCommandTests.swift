import Foundation
import TestSupport
import Testing

/// `skill list` and `skill search` over the Claude Code plugins of Tests/IndexTests/Fixtures/claude-home.
@Suite struct PluginCommandTests {
    static let fixture = packageRoot.appendingPathComponent("Tests/IndexTests/Fixtures/claude-home")

    /// The fixture HOME as default roots: SKILL_PATH unset, no bundled skills.
    func run(_ arguments: [String], in folder: URL) throws -> BinaryRunner.Result {
        try BinaryRunner.run(
            arguments, currentDirectory: folder,
            environment: [
                "HOME": Self.fixture.path, "SKILL_PATH": "", "SKILL_BUNDLED": folder.path,
                "SKILL_INDEX": folder.appendingPathComponent("index.sqlite").path, "CLAUDE_CONFIG_DIR": "",
                "XDG_CONFIG_HOME": Self.fixture.appendingPathComponent(".config").path,
            ])
    }

    @Test func listShowsThePluginAndNoPluginsLeavesThemOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skill-cli-plugins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = try run(["list"], in: folder)
        #expect(list.status == 0, "\(list.stderr)")
        let plugins = Self.fixture.appendingPathComponent(".claude/plugins")
        #expect(
            list.stdout == """
                docs-kit:release-notes  plugin docs-kit, 3 entries
                  Write release notes from merged changes. Use when preparing a tagged release.
                  \(plugins.path)/marketplaces/demo-market/plugins/docs-kit/skills/release-notes
                state-review  3 entries: 2 checklist
                  Review SwiftUI state ownership. Use when a view owns a model it should observe.
                  \(Self.fixture.path)/.claude/skills/state-review
                swift-helper:state-review  plugin swift-helper 1.2.0, 3 entries: 2 checklist
                  Review SwiftUI state ownership. Use when a view owns a model it should observe.
                  \(plugins.path)/cache/demo-market/swift-helper/1.2.0/skills/state-review

                """)
        let search = try run(["search", "release notes", "--json"], in: folder)
        #expect(search.stdout.contains("\"skill\" : \"docs-kit:release-notes\""))
        let without = try run(["list", "--no-plugins", "--index", folder.appendingPathComponent("other.sqlite").path], in: folder)
        #expect(without.stdout.hasPrefix("state-review  3 entries: 2 checklist\n"))
        #expect(!without.stdout.contains("plugin"))
    }
}
