import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The index file and what lies beside it: `--index` never replaces a file that is not an index,
/// temporary files go away on SIGINT, SIGTERM, an early exit of `serve` and at the next build, and
/// `skill doctor --prune` removes cached indexes unused for 30 days.
@Suite(.serialized) struct IndexFileTests {
    static let skills = packageRoot.appendingPathComponent("skills")

    /// A fresh folder of its own.
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("index-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The names in `folder` holding `.tmp-`.
    func temporaryFiles(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.contains(".tmp-") }.sorted()
    }

    /// `count` small skills, enough for a build that lasts a while.
    func manySkills(in folder: URL, count: Int = 1_500) throws -> URL {
        let root = folder.appendingPathComponent("skills")
        for i in 0..<count {
            let skill = root.appendingPathComponent("skill-\(i)")
            try FileManager.default.createDirectory(at: skill, withIntermediateDirectories: true)
            let sections = (0..<20).map {
                "## Section \($0) of skill \(i)\n\nText about topic \($0) and state \(i).\n\n- [ ] check \($0)\n"
            }
            try Data(
                ("---\nname: skill-\(i)\ndescription: Skill \(i). Use when testing.\n---\n# Skill \(i)\n\n"
                    + sections.joined(separator: "\n")).utf8
            )
            .write(to: skill.appendingPathComponent("SKILL.md"))
        }
        return root
    }

    /// The PID of a process that has exited.
    func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func aFileThatIsNotAnIndexIsNeverReplaced() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notes = dir.appendingPathComponent("notes.txt")
        try Data("my notes\n".utf8).write(to: notes)
        let result = try BinaryRunner.run(["build", "--skills", Self.skills.path, "--index", notes.path])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: \(notes.path) exists and is not a skill index; refusing to replace it: pass --index a new path (or SKILL_INDEX) or remove the file yourself\n"
        )
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my notes\n")
        #expect(temporaryFiles(dir) == [])

        // Another program's SQLite database is refused too; an index of ours is rebuilt.
        let other = dir.appendingPathComponent("other.sqlite")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE t(x)'); c.commit()", other.path,
        ]
        try python.run()
        python.waitUntilExit()
        let refused = try BinaryRunner.run(["search", "--skills", Self.skills.path, "--index", other.path, "state"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: \(other.path) exists and is not a skill index"))
        let ours = dir.appendingPathComponent("ours.sqlite").path
        #expect(try BinaryRunner.run(["build", "--skills", Self.skills.path, "--index", ours]).status == 0)
        #expect(try BinaryRunner.run(["build", "--full", "--skills", Self.skills.path, "--index", ours]).status == 0)
    }

    @Test func theNextBuildSweepsTemporaryFilesOfDeadProcesses() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let index = dir.appendingPathComponent("index.sqlite").path
        let dead = try deadPID()
        let live = getpid()
        for name in ["index.sqlite.tmp-\(dead)-42", "index.sqlite.tmp-\(dead)-42-journal", "index.sqlite.tmp-\(live)-7"] {
            try Data("x".utf8).write(to: dir.appendingPathComponent(name))
        }
        let result = try BinaryRunner.run(["build", "--skills", Self.skills.path, "--index", index])
        #expect(result.status == 0)
        // A running process's file is its own business.
        #expect(temporaryFiles(dir) == ["index.sqlite.tmp-\(live)-7"])
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalDuringABuildLeavesNoTemporaryFile(_ sig: Int32) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let skills = try manySkills(in: dir)
        let cache = dir.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = BinaryRunner.binary
        process.arguments = ["build", "--skills", skills.path, "--index", cache.appendingPathComponent("index.sqlite").path]
        process.environment = ["HOME": dir.path, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait (without a time assertion) until the build has its temporary file, then signal.
        var polls = 0
        while temporaryFiles(cache).isEmpty, process.isRunning, polls < 120_000 {
            usleep(500)
            polls += 1
        }
        let sawTemporary = !temporaryFiles(cache).isEmpty
        kill(process.processIdentifier, sig)
        process.waitUntilExit()
        #expect(sawTemporary)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == sig)
        #expect(temporaryFiles(cache) == [])
    }

    @Test func serveExitingBeforeItsBuildEndsLeavesNoTemporaryFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let skills = try manySkills(in: dir)
        let cache = dir.appendingPathComponent("cache")
        // stdin at its end at once: the server stops while its first build runs in the background.
        let result = try BinaryRunner.run(["serve", "--skills", skills.path, "--index", cache.appendingPathComponent("index.sqlite").path])
        #expect(result.status == 0)
        #expect(temporaryFiles(cache) == [])
    }

    @Test func doctorPruneRemovesIndexesUnusedForThirtyDays() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("skill")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let old = Date().addingTimeInterval(-31 * 24 * 3600)
        let dead = try deadPID()
        for name in [
            "index-0000old.sqlite", "index-0000old.sqlite-wal", "index-0000old.sqlite.last-search", "index-0000old.sqlite.checked",
            "index-000fresh.sqlite", "index-000fresh.sqlite.tmp-\(dead)-9", "notes.txt",
        ] {
            let url = cache.appendingPathComponent(name)
            try Data("x".utf8).write(to: url)
            if name.contains("old") || name == "notes.txt" {
                try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
            }
        }
        let result = try BinaryRunner.run(["doctor", "--prune", "--skills", Self.skills.path], environment: ["XDG_CACHE_HOME": dir.path])
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix(
                """
                pruned: \(cache.path)/index-0000old.sqlite
                pruned: \(cache.path)/index-0000old.sqlite-wal
                pruned: \(cache.path)/index-0000old.sqlite.checked
                pruned: \(cache.path)/index-0000old.sqlite.last-search
                pruned: \(cache.path)/index-000fresh.sqlite.tmp-\(dead)-9
                folders searched for skills:

                """))
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter {
            !$0.hasPrefix("index-") || $0.contains("0000old") || $0.contains("000fresh")
        }.sorted()
        #expect(left == ["index-000fresh.sqlite", "notes.txt"])
    }
}
