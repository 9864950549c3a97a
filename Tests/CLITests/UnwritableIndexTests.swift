import Foundation
import Testing

/// Issue 27, item 3: an index that cannot be written (the file, or its folder) still answers
/// every reader from the last committed index, with one warning line saying why it could not
/// refresh; `build` says it cannot write it.
///
/// The tests run as root, whom `chmod` does not stop, so the file or folder is made immutable
/// with `chattr +i` (ext4, xfs, btrfs; root needs CAP_LINUX_IMMUTABLE): the kernel then refuses
/// every write to it, root's included, exactly as a read-only mount or a file of another user
/// does for SQLite. Not root, a plain `chmod` does the same.
@Suite(.serialized) struct UnwritableIndexTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-unwritable-\(UUID().uuidString)")
    var skills: URL { folder.appendingPathComponent("s") }
    var cache: URL { folder.appendingPathComponent("cache") }
    var index: String { cache.appendingPathComponent("index.sqlite").path }

    func skill(_ arguments: [String], input: String? = nil) throws -> BinaryRunner.Result {
        try BinaryRunner.run([arguments[0], "--skills", skills.path, "--index", index] + arguments.dropFirst(), input: input)
    }

    /// What `skill build` says when it cannot write the index.
    func cannotWrite(_ why: String) -> String {
        "error: cannot write the index \(index): \(why); pass --index PATH or set SKILL_INDEX to a writable place\n"
    }

    /// Makes `path` unwritable until `undo` runs.
    func makeReadOnly(_ path: String) throws -> () -> Void {
        if getuid() != 0 {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            try FileManager.default.setAttributes([.posixPermissions: mode & 0o555], ofItemAtPath: path)
            return { try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path) }
        }
        #expect(chattr("+i", path) == 0, "chattr +i \(path) failed: the file system or the container does not allow it")
        return { _ = chattr("-i", path) }
    }

    func chattr(_ flag: String, _ path: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func setUp() throws {
        let one = skills.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: one, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data("---\nname: one\ndescription: One skill. Use when testing.\n---\n# One\n\nAlpha text.\n".utf8)
            .write(to: one.appendingPathComponent("SKILL.md"))
        try Data("let x = 1\n".utf8).write(to: folder.appendingPathComponent("code.swift"))
        #expect(try skill(["build"]).status == 0)
        // An edit the readers cannot index.
        try Data("---\nname: one\ndescription: One skill. Use when testing.\n---\n# One\n\nAlpha text.\n\n## Beta\n\nBeta text.\n".utf8)
            .write(to: one.appendingPathComponent("SKILL.md"))
    }

    /// Every reader answers from the committed index, with `warning` as its only stderr line.
    func readersAnswer(warning: String) throws {
        let search = try skill(["search", "alpha"])
        #expect(search.status == 0)
        #expect(search.stdout.contains("skill show one/SKILL#one"))
        #expect(search.stderr == warning)
        let quiet = try skill(["search", "--no-refresh", "alpha"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout.contains("skill show one/SKILL#one"))
        #expect(quiet.stderr == "")
        let list = try skill(["list"])
        #expect(list.status == 0)
        #expect(list.stdout.hasPrefix("one  2 entries\n"))
        #expect(list.stderr == warning)
        let show = try skill(["show", "one"])
        #expect(show.status == 0)
        #expect(show.stderr == warning)
        let check = try skill(["check", folder.appendingPathComponent("code.swift").path])
        #expect(check.status == 0)
        #expect(check.stderr == warning)
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"alpha"}}}"#,
        ]
        let serve = try skill(["serve"], input: requests.joined(separator: "\n") + "\n")
        #expect(serve.status == 0)
        #expect(serve.stdout.contains(#"id: one/SKILL#one"#))
        #expect(!serve.stdout.contains("notAnIndex"))
        #expect(serve.stderr == "skill serve: " + warning)
    }

    @Test func aReadOnlyIndexFileAnswersEveryReaderWithOneWarning() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try setUp()
        let undo = try makeReadOnly(index)
        defer { undo() }
        let why = getuid() == 0 ? "the file cannot be written (Operation not permitted)" : "the file cannot be written (Permission denied)"
        try readersAnswer(warning: "warning: cannot refresh the index \(index): \(why); answering from the index as last committed\n")
        let build = try skill(["build"])
        #expect(build.status == 1)
        #expect(build.stderr == cannotWrite(why))
        undo()
        #expect(try skill(["build"]).status == 0)
        #expect(try skill(["search", "beta"]).stdout.contains("skill show one/SKILL#one/beta"))
    }

    @Test func anIndexInAReadOnlyFolderAnswersEveryReaderWithOneWarning() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try setUp()
        let undo = try makeReadOnly(cache.path)
        defer { undo() }
        let why =
            getuid() == 0
            ? "its folder \(cache.path) cannot be written (Operation not permitted)"
            : "its folder \(cache.path) cannot be written (Permission denied)"
        try readersAnswer(warning: "warning: cannot refresh the index \(index): \(why); answering from the index as last committed\n")
        for arguments in [["build"], ["build", "--full"]] {
            let build = try skill(arguments)
            #expect(build.status == 1)
            #expect(build.stderr == cannotWrite(why))
        }
        undo()
        #expect(try skill(["build"]).status == 0)
        #expect(try skill(["search", "beta"]).stdout.contains("skill show one/SKILL#one/beta"))
    }
}
