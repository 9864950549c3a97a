import Foundation
import TestSupport
import Testing

/// `skill parse` end to end: the real binary, real pipes, exit codes and streams.
@Suite struct ParseCommandTests {
    @Test(.needsCorpus) func jsonOfTestingSwift() throws {
        let result = try BinaryRunner.run([
            "parse", "--json", corpus.appendingPathComponent("makgunay__claude-swift-skills/testing-swift").path,
        ])
        #expect(result.status == 1)  // the cut description is an error
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(json["schemaVersion"] as? Int == 1)
        let skills = try #require(json["skills"] as? [[String: Any]])
        let entries = try #require(skills.first?["entries"] as? [[String: Any]])
        let kinds = Set(entries.compactMap { $0["kind"] as? String })
        #expect(kinds.isSuperset(of: ["skill", "section", "anti-pattern", "example", "table"]))
        let first = try #require(entries.first)
        #expect(first["id"] as? String == "testing-swift")
        #expect((first["source"] as? [String: Any])?["path"] as? String == "testing-swift/SKILL.md")
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["id"] as? String == "frontmatter.value-cut-by-comment")
        #expect(diagnostics.first?["line"] as? Int == 3)
        #expect(diagnostics.first?["column"] as? Int == 46)
        #expect(result.stderr.hasPrefix("testing-swift/SKILL.md:3:46: error: the value of 'description' ends at ' #'"))
        #expect(result.stderr.hasSuffix("[frontmatter.value-cut-by-comment]\n"))
    }

    @Test func outlineOfAValidSkillExitsZero() throws {
        let fixture = packageRoot.appendingPathComponent("Tests/ParserTests/Fixtures/model/decision-tree")
        let result = try BinaryRunner.run(["parse", fixture.path])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let expected = try String(
            contentsOf: fixture.deletingLastPathComponent().appendingPathComponent("decision-tree.expected"), encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func aMissingPathIsOneErrorLine() throws {
        let result = try BinaryRunner.run(["parse", "/no/such/skill"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "error: /no/such/skill: no such file or folder; give a SKILL.md, a markdown file or a skill folder\n")
    }

    @Test func aFolderWithoutSkills() throws {
        let result = try BinaryRunner.run(["parse", "/proc/self/fdinfo"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no SKILL.md in this folder or below it"))
    }

    @Test func usageErrorExits64() throws {
        let result = try BinaryRunner.run(["parse"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Missing expected argument '<path>'"))
    }
}
