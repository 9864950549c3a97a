import Foundation
import TestSupport
import Testing

/// The bundled skills pass `skill validate` and `skill lint`, and each packs into a zip that
/// `skill install` accepts: the real binary, as a skill author would run it.
@Suite struct BundledSkillsCommandTests {
    static let skills = packageRoot.appendingPathComponent("skills")
    static let names = [
        "ios-architecture-patterns", "swiftui-app-wiring", "swiftui-architecture", "swiftui-mv-patterns", "swiftui-state-and-observation",
    ]

    @Test func validateFindsNoProblem() throws {
        let result = try BinaryRunner.run(["validate", Self.skills.path, "--target", "claude"])
        #expect(result.status == 0)
        #expect(result.stdout == "5 skills: 5 valid, 0 invalid (0 errors, 0 warnings)\n")
        #expect(result.stderr == "")
    }

    @Test func lintScoresEverySkillFull() throws {
        let result = try BinaryRunner.run(["lint", Self.skills.path])
        #expect(result.status == 0)
        #expect(result.stdout == Self.names.map { "100/100 \($0) (\(Self.skills.path)/\($0))\n" }.joined())
        #expect(result.stderr == "")
    }

    @Test(arguments: names)
    func packsAndInstalls(_ name: String) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bundled-pack-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let pack = try BinaryRunner.run(["pack", Self.skills.appendingPathComponent(name).path, "-o", out.path])
        #expect(pack.status == 0)
        let zip = out.appendingPathComponent("\(name).zip")
        #expect(pack.stdout.hasPrefix("\(zip.path)\nsha256 "))
        let install = try BinaryRunner.run(["install", zip.path, "--to", out.appendingPathComponent("dest").path])
        #expect(install.status == 0)
        #expect(install.stdout.hasSuffix("Installed \(out.path)/dest/\(name)\n"))
        let installed = try String(contentsOf: out.appendingPathComponent("dest/\(name)/SKILL.md"), encoding: .utf8)
        #expect(installed == (try String(contentsOf: Self.skills.appendingPathComponent("\(name)/SKILL.md"), encoding: .utf8)))
    }
}
