import Foundation
import Testing

/// `skill install` of a skill that brings scripts: refused without `--yes` when stdin is not a
/// terminal (a terminal is asked), and `--dry-run` lists what would be installed and writes nothing.
@Suite struct InstallConfirmationTests {
    /// A home and a skill folder `demo` with a script.
    func setUp() throws -> (home: URL, skills: URL) {
        let home = try Support.temporaryFolder()
        try Support.write(
            [
                "src/demo/SKILL.md":
                    "---\nname: demo\ndescription: A demo skill. Use when testing installs.\n---\n# Demo\n\nRun scripts/run.sh.\n",
                "src/demo/scripts/run.sh": "#!/bin/sh\necho hi\n",
            ], in: home)
        return (home, home.appendingPathComponent(".claude/skills"))
    }

    @Test func scriptsWithoutYesAreRefusedWhenStdinIsNotATerminal() throws {
        let (home, skills) = try setUp()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try Support.skill(["install", "src/demo"], cwd: home, home: home)
        #expect(run.status == 1)
        #expect(
            run.stdout == "Installing 'demo' into \(skills.path): 2 files, 119 bytes\n  scripts: scripts/run.sh\n  allowed-tools: none\n")
        #expect(
            run.stderr
                == "error: src/demo brings 1 script an agent may run; install with --yes to accept them (--dry-run to look first); nothing was written\n"
        )
        #expect(!FileManager.default.fileExists(atPath: skills.appendingPathComponent("demo").path))

        let yes = try Support.skill(["install", "src/demo", "--yes"], cwd: home, home: home)
        #expect(yes.status == 0)
        #expect(yes.stdout.hasSuffix("Installed \(skills.path)/demo\n"))
    }

    @Test func dryRunWritesNothing() throws {
        let (home, skills) = try setUp()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try Support.skill(["install", "src/demo", "--dry-run"], cwd: home, home: home)
        #expect(run.status == 0)
        #expect(
            run.stdout
                == "Installing 'demo' into \(skills.path): 2 files, 119 bytes\n  scripts: scripts/run.sh\n  allowed-tools: none\nDry run: nothing was written\n"
        )
        #expect(!FileManager.default.fileExists(atPath: skills.path))
    }
}
