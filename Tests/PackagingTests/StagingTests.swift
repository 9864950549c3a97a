import Foundation
import SkillPackaging
import SkillParser
import Testing

/// What an install or uninstall killed mid-way (`kill -9`) leaves: staging folders that no
/// scanner looks into and that the next install or uninstall sweeps.
@Suite struct StagingTests {
    static let skill = "---\nname: demo\ndescription: A demo skill. Use when testing installs.\n---\n"
    /// A dead process's staging folder, and the names older versions used.
    static let leftovers = [
        ".skill-staging-99999999-install-1F0E/demo/SKILL.md",
        ".skill-install-6A1B2C3D-0000/demo/SKILL.md",
        ".skill-uninstall-6A1B2C3D-0001/keep-old/SKILL.md",
    ]

    func homeWithLeftovers() throws -> (home: URL, skills: URL) {
        let home = try InstallTests.makeHome()
        let skills = home.appendingPathComponent(".claude/skills")
        try Support.write(Dictionary(uniqueKeysWithValues: Self.leftovers.map { ($0, Self.skill) }), in: skills)
        return (home, skills)
    }

    @Test func leftoversAreNeverFoundAsSkills() throws {
        let (home, skills) = try homeWithLeftovers()
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(SkillFinder.skillFolders(in: skills).map(\.lastPathComponent) == ["keep"])
    }

    @Test func nextInstallSweepsLeftovers() throws {
        let (home, skills) = try homeWithLeftovers()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try Support.skill(["install", "good.zip", "--yes"], cwd: InstallTests.zips, home: home)
        #expect(run.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: skills.path).sorted() == ["demo", "keep"])
    }

    @Test func nextUninstallSweepsLeftovers() throws {
        let (home, skills) = try homeWithLeftovers()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try Support.skill(["uninstall", "keep"], cwd: home, home: home)
        #expect(run.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: skills.path) == [])
    }

    @Test func aLiveProcessStagingFolderIsKept() throws {
        let (home, skills) = try homeWithLeftovers()
        defer { try? FileManager.default.removeItem(at: home) }
        // Process 1 always runs: its folder belongs to an install still under way.
        try Support.write([".skill-staging-1-install-AB/demo/SKILL.md": Self.skill], in: skills)
        let run = try Support.skill(["uninstall", "keep"], cwd: home, home: home)
        #expect(run.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: skills.path) == [".skill-staging-1-install-AB"])
    }
}

extension StagingTests {
    @Test func installKilledMidWayIsNeverIndexedAndTheNextInstallSweepsIt() throws {
        let home = try InstallTests.makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let skills = home.appendingPathComponent(".claude/skills")
        let source = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: source) }
        let demo = source.appendingPathComponent("demo")
        try Support.write(["demo/SKILL.md": Self.skill + "# Demo\n"], in: source)
        let megabyte = Data(repeating: 0x61, count: 1 << 20)
        for n in 0..<40 { try megabyte.write(to: demo.appendingPathComponent("data-\(n).txt")) }

        let process = Process()
        process.executableURL = Support.binary
        process.arguments = ["install", demo.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["HOME": home.path, "NO_COLOR": "1"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // kill -9 as soon as the install is unpacking.
        var staged: String?
        while process.isRunning, staged == nil {
            staged = (try? FileManager.default.contentsOfDirectory(atPath: skills.path))?.first { $0.hasPrefix(".skill-staging-") }
            usleep(200)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let leftover = try #require(staged)
        #expect(FileManager.default.fileExists(atPath: skills.appendingPathComponent(leftover).path))

        let list = try Support.skill(
            ["list", "--skills", skills.path, "--index", home.appendingPathComponent("index.sqlite").path, "--json"], cwd: home, home: home)
        #expect(list.status == 0)
        #expect(list.stdout.contains("\"keep\""))
        #expect(!list.stdout.contains("demo"))

        let again = try Support.skill(["install", "good.zip", "--yes"], cwd: InstallTests.zips, home: home)
        #expect(again.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: skills.path).sorted() == ["demo", "keep"])
    }
}
