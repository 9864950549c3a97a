import Foundation
import TestSupport
import Testing

/// `skill lint` and `skill validate` on the frontmatter cases a new user meets: YAML that does not
/// parse fails lint, `allowed-tools` as a YAML list passes validate with a warning, and
/// `--min-score` out of range is a usage error.
@Suite struct LintValidateCommandTests {
    /// A skill folder `name` holding `SKILL.md` with `text`.
    func skill(_ name: String, _ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lint-cli-\(UUID().uuidString)/\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("SKILL.md"))
        return folder
    }

    @Test func lintFailsOnFrontmatterThatDoesNotParse() throws {
        let folder = try skill("broken", "---\nname: broken\ndescription: [unclosed\n---\n# Broken\n\nUse when testing.\n")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let result = try BinaryRunner.run(["lint", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(folder.path)/SKILL.md:4:1: error: the frontmatter is not valid YAML: "))
        #expect(result.stderr.contains("[frontmatter.yaml-syntax]\n"))
    }

    @Test func allowedToolsAsAListIsAWarning() throws {
        let folder = try skill(
            "tools-list",
            "---\nname: tools-list\ndescription: Lists its tools. Use when testing allowed-tools written as a list.\nallowed-tools:\n  - Bash\n  - Read\n---\n# Tools\n\nBody.\n"
        )
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let result = try BinaryRunner.run(["validate", folder.path])
        #expect(result.status == 0)
        #expect(result.stdout == "1 skill: 1 valid, 0 invalid (0 errors, 1 warning)\n")
        #expect(
            result.stderr
                == "\(folder.path)/SKILL.md:4:1: warning: 'allowed-tools' is a YAML list; agents accept it, but the specification writes one space-separated string: 'allowed-tools: Bash Read' [frontmatter.allowed-tools.list]\n"
        )
    }

    @Test func minScoreOutOfRangeIsAUsageError() throws {
        for score in ["150", "-1"] {
            let result = try BinaryRunner.run([
                "lint", "--min-score=\(score)", packageRoot.appendingPathComponent("skills").path,
            ])
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: --min-score must be between 0 and 100, not \(score)\n"))
        }
    }
}
