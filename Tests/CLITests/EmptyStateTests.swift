import Foundation
import TestSupport
import Testing

/// When no skill is indexed the commands and the server say so and where they looked, and
/// `skill doctor` reports the folders, the index file and what is wrong.
@Suite struct EmptyStateTests {
    static let skills = packageRoot.appendingPathComponent("skills")

    /// A fresh empty folder of its own.
    func emptyFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("empty-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func searchOfAnEmptyFolderSaysNothingIsIndexed() throws {
        let folder = try emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try BinaryRunner.run([
            "search", "--skills", folder.path, "--index", folder.appendingPathComponent("i.sqlite").path, "state",
        ])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "error: no skills indexed: looked in \(folder.path) (no skills); pass --skills DIR or set SKILL_PATH\n")
    }

    @Test func aSkillPathOfMissingFoldersIsNamed() throws {
        let folder = try emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try BinaryRunner.run(
            ["search", "state"],
            environment: ["SKILL_PATH": "/no/such/a:/no/such/b", "SKILL_INDEX": folder.appendingPathComponent("i.sqlite").path])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: no skills indexed: looked in /no/such/a (missing), /no/such/b (missing); pass --skills DIR or set SKILL_PATH\n")
        let list = try BinaryRunner.run(
            ["list"], environment: ["SKILL_PATH": "/no/such/a", "SKILL_INDEX": folder.appendingPathComponent("i.sqlite").path])
        #expect(list.stdout == "no skills indexed: looked in /no/such/a (missing); pass --skills DIR or set SKILL_PATH\n")
        let show = try BinaryRunner.run(
            ["show", "state"], environment: ["SKILL_PATH": "/no/such/a", "SKILL_INDEX": folder.appendingPathComponent("i.sqlite").path])
        #expect(show.status == 1)
        #expect(show.stderr == "error: no skills indexed: looked in /no/such/a (missing); pass --skills DIR or set SKILL_PATH\n")
    }

    @Test func aBinaryCopiedAwayFromItsSkillsSaysSo() throws {
        let folder = try emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("bin/skill")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: BinaryRunner.binary, to: copy)
        let result = try BinaryRunner.run(["search", "state"], currentDirectory: folder, environment: ["SKILL_PATH": ""], binary: copy)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "error: no skills indexed: looked in \(folder.path)/skills (missing), \(folder.path)/.claude/skills (missing), "))
        #expect(
            result.stderr.hasSuffix(
                " (missing); the bundled skills were not found beside this binary (install with `make install`, or set SKILL_BUNDLED); pass --skills DIR or set SKILL_PATH\n"
            ))
        #expect(result.stderr.contains("/.codex/skills (missing), "))
        let doctor = try BinaryRunner.run(["doctor"], currentDirectory: folder, environment: ["SKILL_PATH": ""], binary: copy)
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("\nbundled skills: not found (install with `make install`, or set SKILL_BUNDLED)\n"))
    }

    @Test func doctorReportsFoldersIndexAndCounts() throws {
        let folder = try emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = folder.appendingPathComponent("i.sqlite").path
        let result = try BinaryRunner.run(["doctor", "--index", index], environment: ["SKILL_PATH": "\(Self.skills.path):/no/such/folder"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(3)) == [
                "folders searched for skills:", "  \(Self.skills.path)  5 skills", "  /no/such/folder  missing",
            ])
        // The size as ByteCountFormatter writes it (a few hundred KB for these skills), then the time.
        #expect(
            lines[3].hasPrefix("index: \(index)  ") && (lines[3].contains(" KB, last used 20") || lines[3].contains(" MB, last used 20")))
        #expect(lines[4].hasPrefix("indexed: 5 skills, ") && lines[4].hasSuffix(" entries"))
        #expect(lines.last == "no problem found")

        let json = try BinaryRunner.run(["doctor", "--json", "--index", index], environment: ["SKILL_PATH": Self.skills.path])
        let health = try #require((try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["health"] as? [String: Any])
        #expect(health["skillCount"] as? Int == 5)
        #expect(health["problems"] as? [String] == [])
        #expect((health["index"] as? [String: Any])?["path"] as? String == index)
    }

    @Test func doctorOfAnEmptyFolderExitsOneWithTheProblem() throws {
        let folder = try emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try BinaryRunner.run(["doctor", "--skills", folder.path, "--index", folder.appendingPathComponent("i.sqlite").path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\nindexed: 0 skills, 0 entries\n"))
        #expect(
            result.stdout.hasSuffix(
                "\nproblem: no skills indexed: looked in \(folder.path) (no skills); pass --skills DIR or set SKILL_PATH\n"))
    }

    @Test func theServerSaysNoSkillsAreIndexedAndWhere() throws {
        let folder = try emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
            {"jsonrpc":"2.0","method":"notifications/initialized"}
            {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"state"}}}

            """
        let result = try BinaryRunner.run(
            ["serve", "--skills", folder.path, "--index", folder.appendingPathComponent("i.sqlite").path], input: input)
        #expect(result.status == 0)
        let reply = try #require(result.stdout.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])
        let content = try #require((json["result"] as? [String: Any])?["content"] as? [[String: Any]])
        #expect(
            content.first?["text"] as? String
                == "Nothing can match: no skills indexed: looked in \(folder.path) (no skills); pass --skills DIR or set SKILL_PATH.")
    }
}
