import Foundation
import SkillPackaging
import Testing

/// Every zip entry and folder file is read through a bounded reader, whatever its header or
/// size says (docs/reliability.md).
@Suite struct BoundedReadTests {
    @Test func entryInflatingPastItsDeclaredSizeIsRefusedDuringInspection() throws {
        let home = try InstallTests.makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let before = Support.snapshot(home)
        let run = try Support.skill(["install", "lying.zip"], cwd: InstallTests.zips, home: home)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.contains("'demo/SKILL.md' holds more bytes than it declares (1000)"))
        #expect(Support.snapshot(home) == before)
    }

    @Test func zip64FolderEntriesAreNotCountedAsBytes() throws {
        // Info-ZIP's zip64 folder entries declare 0xFFFFFFFF bytes: a placeholder, not a bomb.
        let home = try InstallTests.makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try Support.skill(["install", "zip64-folders.zip"], cwd: InstallTests.zips, home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Installing 'demo' into \(home.path)/.claude/skills: 2 files, 107 bytes\n"))
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(".claude/skills/demo/references/a.md").path))
    }

    @Test func sparseThreeGigabyteSkillFileInAFolderIsRefused() throws {
        let home = try InstallTests.makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let source = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: source) }
        let skill = source.appendingPathComponent("demo")
        try FileManager.default.createDirectory(at: skill, withIntermediateDirectories: true)
        let file = skill.appendingPathComponent("SKILL.md")
        try Data("---\nname: demo\ndescription: A demo skill. Use when testing installs.\n---\n".utf8).write(to: file)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 3 << 30)
        try handle.close()
        let before = Support.snapshot(home)
        let run = try Support.skill(["install", skill.path], cwd: source, home: home)
        #expect(run.status == 1)
        #expect(run.stderr.contains("over the limit of 50 MB (52428800 bytes) [install.too-large]"))
        #expect(Support.snapshot(home) == before)
    }
}
