import Foundation
import Testing

/// `skill search` under the readers' freshness rule: a check is trusted for SKILL_TRUST_SECONDS,
/// so an edit inside that window is not seen until the window ends or `skill build` runs.
@Suite struct FreshnessCommandTests {
    /// A folder with one skill, searched once (so indexed) with `trust`, then the skill file
    /// appended to in place (its folder's time unchanged); returns the skill file's path and a
    /// `search --format line` runner.
    func indexedThenEdited(trust: String) throws -> (
        folder: URL, skill: String, search: (String) throws -> BinaryRunner.Result, build: () throws -> Int32
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skill-fresh-\(UUID().uuidString)")
        let skill = folder.appendingPathComponent("skills/one/SKILL.md")
        try FileManager.default.createDirectory(at: skill.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("---\nname: one\ndescription: The one skill.\n---\n# One\n\nAbout one.\n".utf8).write(to: skill)
        let base = [
            "--skills", folder.appendingPathComponent("skills").path, "--index", folder.appendingPathComponent("index.sqlite").path,
        ]
        let search = { (word: String) in
            try BinaryRunner.run(["search", word, "--format", "line"] + base, environment: ["SKILL_TRUST_SECONDS": trust])
        }
        #expect(try search("about").status == 0)
        let handle = try FileHandle(forWritingTo: skill)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n## Wombats\n\nAbout wombats.\n".utf8))
        try handle.close()
        return (folder, skill.path, search, { try BinaryRunner.run(["build"] + base).status })
    }

    @Test func anEditInsideTheTrustWindowWaitsForItsEndOrForBuild() throws {
        let run = try indexedThenEdited(trust: "3600")
        defer { try? FileManager.default.removeItem(at: run.folder) }
        let trusted = try run.search("wombats")
        #expect(trusted.status == 1)
        #expect(trusted.stdout == "")
        #expect(try run.build() == 0)
        #expect(try run.search("wombats").stdout == "\(run.skill):9:section:Wombats\n")
    }

    /// Issue 27, item 7: a skill installed or uninstalled inside the trust window changes its
    /// root's time, which every call stats: the next search sees it.
    @Test func aSkillInstalledOrRemovedInsideTheTrustWindowIsSeenAtOnce() throws {
        let run = try indexedThenEdited(trust: "3600")
        defer { try? FileManager.default.removeItem(at: run.folder) }
        let root = run.folder.appendingPathComponent("skills")
        let source = run.folder.appendingPathComponent("source/wombat")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try Data("---\nname: wombat\ndescription: Wombat care. Use when keeping wombats.\n---\n# Wombat\n\nBurrows are deep.\n".utf8)
            .write(to: source.appendingPathComponent("SKILL.md"))
        #expect(try run.search("burrows").status == 1)
        let install = try BinaryRunner.run(["install", source.path, "--to", root.path, "--yes"])
        #expect(install.status == 0)
        #expect(try run.search("burrows").stdout == "\(root.path)/wombat/SKILL.md:5:section:Wombat\n")
        let uninstall = try BinaryRunner.run(["uninstall", "wombat", "--from", root.path])
        #expect(uninstall.status == 0)
        let gone = try run.search("burrows")
        #expect(gone.status == 1)
        #expect(gone.stdout == "")
    }

    @Test func aZeroWindowChecksEveryCall() throws {
        let run = try indexedThenEdited(trust: "0")
        defer { try? FileManager.default.removeItem(at: run.folder) }
        #expect(try run.search("wombats").stdout == "\(run.skill):9:section:Wombats\n")
    }
}
