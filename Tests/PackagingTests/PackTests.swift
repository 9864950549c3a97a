import Foundation
import SkillPackaging
import SkillParser
import Testing

/// `skill pack`: byte-identical zips of valid skills only.
@Suite struct PackTests {
    static let skillFiles = [
        "demo/SKILL.md": "---\nname: demo\ndescription: A demo skill. Use when testing packs.\n---\n# Demo\n\nRun scripts/run.sh.\n",
        "demo/references/notes.md": "# Notes\n",
        "demo/scripts/run.sh": "#!/bin/sh\necho hi\n",
        "demo/.git/config": "[core]\n",
        "demo/.DS_Store": "junk",
        "demo/__pycache__/x.cpython-311.pyc": "junk",
        "demo/scripts/helper.pyc": "junk",
        "demo/node_modules/left-pad/index.js": "junk",
        "demo/.env": "SECRET=1",
        "demo/.env.local": "SECRET=2",
    ]

    /// A demo skill in a fresh folder; returns (folder holding `demo`, home).
    static func makeSkill() throws -> (URL, URL) {
        let root = try Support.temporaryFolder()
        try Support.write(skillFiles, in: root)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o700], ofItemAtPath: root.appendingPathComponent("demo/scripts/run.sh").path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: root.appendingPathComponent("demo/SKILL.md").path)
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return (root, home)
    }

    @Test func sameBytesAcrossRunsTimesAndTimeZones() throws {
        let (root, home) = try Self.makeSkill()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try Support.skill(["pack", "demo", "-o", "out1"], cwd: root, home: home, environment: ["TZ": "UTC"])
        #expect(first.status == 0)
        #expect(first.stderr == "")
        // New modification times, another time zone, another umask-like permission: same bytes.
        for path in Self.skillFiles.keys {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: root.appendingPathComponent(path).path)
        }
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o664], ofItemAtPath: root.appendingPathComponent("demo/references/notes.md").path)
        let second = try Support.skill(["pack", "demo", "-o", "out2"], cwd: root, home: home, environment: ["TZ": "Asia/Tokyo"])
        #expect(second.status == 0)
        let sha1 = first.stdout.split(separator: "\n").last!
        let sha2 = second.stdout.split(separator: "\n").last!
        #expect(sha1 == sha2)
        #expect(first.stdout == "out1/demo.zip\n\(sha1)\n")
        let a = try Data(contentsOf: root.appendingPathComponent("out1/demo.zip"))
        let b = try Data(contentsOf: root.appendingPathComponent("out2/demo.zip"))
        #expect(a == b)
        #expect("sha256 " + SHA256.hex(a) == String(sha1))
    }

    @Test func pythonUnpacksExactlyTheKeptFiles() throws {
        let (root, home) = try Self.makeSkill()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Support.skill(["pack", "demo", "--ext", "skill"], cwd: root, home: home).status == 0)
        let script = """
            import zipfile, stat
            z = zipfile.ZipFile('demo.skill')
            for i in z.infolist():
                print(i.filename, oct(stat.S_IMODE(i.external_attr >> 16)), i.date_time, i.compress_type)
            z.extractall('unpacked')
            """
        let run = try Support.python(["-c", script], cwd: root)
        #expect(run.stderr == "")
        #expect(
            run.stdout == """
                demo/SKILL.md 0o644 (1980, 1, 1, 0, 0, 0) 8
                demo/references/notes.md 0o644 (1980, 1, 1, 0, 0, 0) 8
                demo/scripts/run.sh 0o755 (1980, 1, 1, 0, 0, 0) 8

                """)
        let unpacked = try String(contentsOf: root.appendingPathComponent("unpacked/demo/scripts/run.sh"), encoding: .utf8)
        #expect(unpacked == Self.skillFiles["demo/scripts/run.sh"])
    }

    @Test func sourceDateEpochSetsTheTimestamps() throws {
        let (root, home) = try Self.makeSkill()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try Support.skill(["pack", "demo"], cwd: root, home: home, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(run.status == 0)
        let py = try Support.python(
            ["-c", "import zipfile; print({i.date_time for i in zipfile.ZipFile('demo.zip').infolist()})"], cwd: root)
        #expect(py.stdout == "{(2023, 11, 14, 22, 13, 20)}\n")
    }

    @Test func symlinksInsideAreStoredAsContentOutsideRefused() throws {
        let (root, home) = try Self.makeSkill()
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("demo/alias.md").path, withDestinationPath: "references/notes.md")
        let inside = try SkillPacker.pack(
            SkillTarget(folder: root.appendingPathComponent("demo"), displayPath: "demo"), options: PackOptions(outputDirectory: root))
        #expect(inside.entries == ["demo/SKILL.md", "demo/alias.md", "demo/references/notes.md", "demo/scripts/run.sh"])
        try "secret\n".write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("demo/leak.txt").path, withDestinationPath: "../secret.txt")
        try fm.removeItem(at: root.appendingPathComponent("demo.zip"))
        let run = try Support.skill(["pack", "demo"], cwd: root, home: home)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(
            run.stderr == """
                demo/leak.txt:1:1: error: this symbolic link leads out of the skill folder and is never followed; copy the file into the skill instead [pack.symlink.outside]
                error: demo: not packed because of the errors above; fix them and run 'skill pack' again

                """)
        #expect(!fm.fileExists(atPath: root.appendingPathComponent("demo.zip").path))
    }

    @Test func invalidSkillIsRefused() throws {
        let root = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try Support.write(["bad/SKILL.md": "---\nname: Bad\ndescription: x\n---\n"], in: root)
        let run = try Support.skill(["pack", "bad"], cwd: root, home: root)
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                bad/SKILL.md:2:1: error: name 'Bad' must be 1-64 characters of a-z, 0-9 and '-', without a leading, trailing or doubled '-' [frontmatter.name.invalid]
                error: bad: not packed because of the errors above; fix them and run 'skill pack' again

                """)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["bad"])
        let notSkill = try Support.skill(["pack", "nowhere"], cwd: root, home: root)
        #expect(notSkill.status == 1)
        #expect(notSkill.stderr == "error: nowhere: not a skill folder; give the folder that holds SKILL.md\n")
        let usage = try Support.skill(["pack", "bad", "--ext", "tar"], cwd: root, home: root)
        #expect(usage.status == 64)
    }

    @Test func sha256KnownAnswers() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data(repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
