import Foundation
import Testing

/// Issue 27, item 11: `build --verify` says what it did (it parsed only what differed), not
/// "(full build)".
@Suite struct BuildVerifyCommandTests {
    @Test func verifySaysHowManyDocumentsItReadAndRepaired() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-verify-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let skill = folder.appendingPathComponent("s/one")
        try FileManager.default.createDirectory(at: skill.appendingPathComponent("references"), withIntermediateDirectories: true)
        try Data("---\nname: one\ndescription: One skill. Use when testing.\n---\n# One\n\nAlpha text.\n".utf8)
            .write(to: skill.appendingPathComponent("SKILL.md"))
        try Data("# Ref\n\nReference text.\n".utf8).write(to: skill.appendingPathComponent("references/ref.md"))
        let index = folder.appendingPathComponent("index.sqlite").path
        let arguments = ["build", "--skills", folder.appendingPathComponent("s").path, "--index", index]
        #expect(try BinaryRunner.run(arguments).status == 0)
        let verify = try BinaryRunner.run(arguments + ["--verify"])
        #expect(verify.status == 0)
        #expect(verify.stdout == "1 skill, 3 entries (verified 2 documents, repaired 0) in \(index)\n")
        let json = try BinaryRunner.run(arguments + ["--verify", "--json"])
        let report = (try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["report"] as? [String: Any]
        #expect(report?["verified"] as? Int == 2)
        #expect(report?["full"] as? Bool == false)
    }
}
