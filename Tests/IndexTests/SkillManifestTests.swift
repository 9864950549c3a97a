import Foundation
import SkillParser
import Testing

@testable import SkillIndex

/// The manifests the index records for the MCP Skills extension: every file's sha256 and size,
/// the frontmatter as JSON, kept up to date by refreshes.
@Suite struct SkillManifestTests {
    func digest(_ sandbox: Sandbox, _ path: String) throws -> String {
        "sha256:" + SHA256.hex(try Data(contentsOf: sandbox.skills.appendingPathComponent(path)))
    }

    @Test func recordsEveryFileAndFollowsChanges() throws {
        let sandbox = try Sandbox(fixtures: nil)
        try sandbox.write("---\nname: one\ndescription: First.\nmetadata:\n  version: 3\n---\n# One\n", to: "one/SKILL.md")
        try sandbox.write("echo hi\n", to: "one/scripts/run.sh")
        try sandbox.write("# Notes\n", to: "one/references/notes.md")
        let index = sandbox.index()
        try index.refresh()
        let first = try #require(try index.manifests().first)
        #expect(first.name == "one")
        #expect(first.path == "one")
        #expect(first.frontmatter == #"{"name":"one","description":"First.","metadata":{"version":3}}"#)
        #expect(first.files.map(\.path) == ["SKILL.md", "references/notes.md", "scripts/run.sh"])
        for file in first.files {
            #expect(file.digest == (try digest(sandbox, "one/" + file.path)))
            #expect(Int(file.size) == (try Data(contentsOf: sandbox.skills.appendingPathComponent("one/" + file.path))).count)
        }
        let generation = try index.manifestGeneration()

        // Nothing changed: nothing recorded again.
        #expect(try index.refreshManifests() == false)
        #expect(try index.manifestGeneration() == generation)

        // A script edited in place (no markdown document, no folder time changed).
        try sandbox.write("echo bye\n", to: "one/scripts/run.sh")
        #expect(try index.refreshManifests() == true)
        #expect(try index.manifestGeneration() > generation)
        let edited = try #require(try index.manifests().first)
        #expect(edited.files.first { $0.path == "scripts/run.sh" }?.digest == (try digest(sandbox, "one/scripts/run.sh")))
        #expect(edited.files.first { $0.path == "SKILL.md" } == first.files.first { $0.path == "SKILL.md" })

        // A new skill and a removed file, through an ordinary refresh.
        try sandbox.write("---\nname: two\ndescription: Second.\n---\n# Two\n", to: "two/SKILL.md")
        try FileManager.default.removeItem(at: sandbox.skills.appendingPathComponent("one/references/notes.md"))
        try index.refresh()
        let all = try index.manifests()
        #expect(all.map(\.name) == ["one", "two"])
        #expect(all[0].files.map(\.path) == ["SKILL.md", "scripts/run.sh"])
    }

    @Test func countsWithoutHashingOverTheLimits() throws {
        let sandbox = try Sandbox(fixtures: nil)
        try sandbox.write("---\nname: big\ndescription: Too many files.\n---\n# Big\n", to: "big/SKILL.md")
        for i in 0..<SkillManifest.maxFiles { try Data("x".utf8).write(to: sandbox.skills.appendingPathComponent("big/\(i).txt")) }
        let index = sandbox.index()
        try index.refresh()
        let big = try #require(try index.manifests().first)
        #expect(big.fileCount == SkillManifest.maxFiles + 1)
        #expect(big.exceedsLimits)
        #expect(big.files.isEmpty)
        #expect(big.limitProblem?.contains("has 513 files") == true)
    }
}
