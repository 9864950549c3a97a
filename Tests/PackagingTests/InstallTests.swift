import Foundation
import SkillPackaging
import SkillParser
import TestSupport
import Testing

/// `skill install`/`uninstall`: every attack refused with the destination untouched.
@Suite(.serialized) struct InstallTests {
    /// The archives of make_zips.py, made once.
    static let zips: URL = {
        let folder = try! Support.temporaryFolder()
        let script = packageRoot.appendingPathComponent("Tests/PackagingTests/make_zips.py").path
        let run = try! Support.python([script, folder.path], cwd: folder)
        precondition(run.status == 0, run.stderr)
        return folder
    }()

    static let attacks: [(String, String)] = [
        ("parent.zip", "parent.zip:1:1: error: the entry 'demo/../../evil.txt' leads out of the skill folder [install.entry.unsafe-path]"),
        ("absolute.zip", "absolute.zip:1:1: error: the entry '/tmp/evil.txt' is an absolute path [install.entry.absolute-path]"),
        (
            "backslash.zip",
            #"backslash.zip:1:1: error: the entry 'demo\..\..\evil.txt' contains a backslash, which Windows reads as a folder separator [install.entry.backslash]"#
        ),
        (
            "symlink.zip",
            "symlink.zip:1:1: error: the entry 'demo/link' is a symbolic link, which could point anywhere [install.entry.symlink]"
        ),
        ("many.zip", "many.zip:1:1: error: the archive has 2001 entries, over the limit of 1000 [install.too-many-entries]"),
        (
            "bomb.zip",
            "bomb.zip:1:1: error: the archive unpacks to 1073741950 bytes, over the limit of 50 MB (52428800 bytes) [install.too-large]\nbomb.zip:1:1: error: the archive unpacks to 1028 times its compressed size, over 100: a zip bomb [install.compression-ratio]"
        ),
        (
            "two-folders.zip",
            "two-folders.zip:1:1: error: the archive must hold exactly one top-level folder named after the skill, with SKILL.md in it; it holds 'demo/', 'other/' [install.top-level]"
        ),
        (
            "no-skill-md.zip",
            "no-skill-md.zip:1:1: error: 'demo/SKILL.md' is missing; a skill is a folder holding SKILL.md [install.skill-file.missing]"
        ),
        (
            "nested.zip",
            "nested.zip:1:1: error: the entry 'demo/assets/inner.zip' is an archive inside the archive; unpack it into the skill instead [install.entry.nested-archive]"
        ),
        (
            "duplicate.zip",
            "duplicate.zip:1:1: error: the entry 'demo/References/Notes.md' appears twice (letter case ignored) [install.entry.duplicate]"
        ),
    ]

    /// A home with an installed skill `keep`, so "unchanged" has something to check.
    static func makeHome() throws -> URL {
        let home = try Support.temporaryFolder()
        try Support.write([".claude/skills/keep/SKILL.md": "---\nname: keep\ndescription: Kept. Use when testing.\n---\n"], in: home)
        return home
    }

    @Test(arguments: attacks.map(\.0))
    func attackIsRefusedAndNothingChanges(_ zip: String) throws {
        let home = try Self.makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let before = Support.snapshot(home)
        let run = try Support.skill(["install", zip], cwd: Self.zips, home: home)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        let want = Self.attacks.first { $0.0 == zip }!.1
        #expect(run.stderr == want + "\nerror: \(zip): not installed because of the problems above; nothing was written\n")
        #expect(Support.snapshot(home) == before)
    }

    @Test func invalidSkillAndCorruptArchiveLeaveNothing() throws {
        let home = try Self.makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let before = Support.snapshot(home)
        let invalid = try Support.skill(["install", "invalid-skill.zip"], cwd: Self.zips, home: home)
        #expect(invalid.status == 1)
        #expect(
            invalid.stderr == """
                demo/SKILL.md:2:1: error: name 'other' differs from its folder 'demo'; rename one so they match [frontmatter.name.mismatch]
                error: invalid-skill.zip: not installed because the skill is invalid (above); nothing was written

                """)
        let corrupt = try Support.skill(["install", "not-a-zip.zip"], cwd: Self.zips, home: home)
        #expect(corrupt.status == 1)
        #expect(
            corrupt.stderr
                == "error: not-a-zip.zip: not a readable zip archive (missingEndOfCentralDirectoryRecord); make it again with 'skill pack'\n"
        )
        #expect(Support.snapshot(home) == before)
        // A destination that did not exist is not left behind either.
        let fresh = home.appendingPathComponent("fresh/skills")
        _ = try Support.skill(["install", "invalid-skill.zip", "--to", fresh.path], cwd: Self.zips, home: home)
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("fresh").path))
    }

    @Test func goodZipInstallsReplacesAndUninstalls() throws {
        let home = try Self.makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let skills = home.appendingPathComponent(".claude/skills")
        let run = try Support.skill(["install", "good.zip", "--yes"], cwd: Self.zips, home: home)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout == """
                Installing 'demo' into \(skills.path): 3 files, 152 bytes
                  scripts: scripts/run.sh
                  allowed-tools: Bash Read
                Installed \(skills.path)/demo

                """)
        #expect(try FileManager.default.contentsOfDirectory(atPath: skills.path).sorted() == ["demo", "keep"])
        let mode =
            try FileManager.default.attributesOfItem(atPath: skills.appendingPathComponent("demo/scripts/run.sh").path)[.posixPermissions]
            as? NSNumber
        #expect(mode?.intValue == 0o755)
        // The installed folder is found as a skill (`skill list` is built elsewhere: SkillFinder and `skill parse` stand in).
        #expect(SkillFinder.skillFolders(in: skills).map(\.lastPathComponent) == ["demo", "keep"])
        let parse = try Support.skill(["parse", skills.path], cwd: home, home: home)
        #expect(parse.status == 0)
        #expect(parse.stdout.contains("demo"))

        let again = try Support.skill(["install", "good-v2.zip"], cwd: Self.zips, home: home)
        #expect(again.status == 1)
        #expect(again.stdout == "")
        #expect(again.stderr == "error: \(skills.path)/demo already exists; pass --force to replace it, or 'skill uninstall' it first\n")
        let forced = try Support.skill(["install", "good-v2.zip", "--force", "--yes"], cwd: Self.zips, home: home)
        #expect(forced.status == 0)
        #expect(forced.stdout.hasSuffix("Replaced \(skills.path)/demo\n"))
        #expect(try String(contentsOf: skills.appendingPathComponent("demo/SKILL.md"), encoding: .utf8).contains("Version 2."))
        #expect(!FileManager.default.fileExists(atPath: skills.appendingPathComponent("demo/scripts").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: skills.path).sorted() == ["demo", "keep"])

        let removed = try Support.skill(["uninstall", "demo"], cwd: home, home: home)
        #expect(removed.status == 0)
        #expect(removed.stdout == "Removed \(skills.path)/demo\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: skills.path) == ["keep"])
        let missing = try Support.skill(["uninstall", "demo"], cwd: home, home: home)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: \(skills.path)/demo: no skill installed there; 'skill list' shows the installed skills\n")
        let escape = try Support.skill(["uninstall", "../keep"], cwd: home, home: home)
        #expect(escape.stderr == "error: '../keep' is not a skill name; give the name of an installed skill, such as 'pdf'\n")
    }

    @Test func installFromFolderAndProject() throws {
        let home = try Self.makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try Support.write(
            [
                "src/tool/SKILL.md": "---\nname: tool\ndescription: A tool. Use when testing.\n---\n",
                "src/tool/.env": "SECRET=1",
                "project/README.md": "x",
            ], in: home)
        let run = try Support.skill(
            ["install", "../src/tool", "--project", "--to", "agents"], cwd: home.appendingPathComponent("project"), home: home)
        #expect(run.status == 0)
        let installed = home.appendingPathComponent("project/.agents/skills/tool")
        #expect(try FileManager.default.contentsOfDirectory(atPath: installed.path) == ["SKILL.md"])
    }

    @Test func packThenInstallRoundTrips() throws {
        let home = try Self.makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try Support.write(["src/round/SKILL.md": "---\nname: round\ndescription: Round trip. Use when testing.\n---\n# Round\n"], in: home)
        #expect(try Support.skill(["pack", "src/round", "-o", "dist"], cwd: home, home: home).status == 0)
        let plan = try SkillInstaller.inspect(home.appendingPathComponent("dist/round.zip"), display: "round.zip")
        #expect(!plan.refused)
        #expect(plan.files == ["SKILL.md"])
        let outcome = try SkillInstaller.install(plan, into: home.appendingPathComponent("to"), force: false)
        #expect(outcome.installed?.lastPathComponent == "round")
    }
}
