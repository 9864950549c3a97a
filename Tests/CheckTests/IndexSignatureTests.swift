import Foundation
import SkillCheck
import SkillIndex
import TestSupport
import Testing

/// Signatures live in the index and follow the skills through incremental builds.
@Suite struct IndexSignatureTests {
    private static let skill = """
        ---
        name: demo
        description: Demo skill for checking. Use when testing skill check.
        ---
        # Demo

        ## Anti-Pattern: Semaphore Around a Task

        ```swift
        // ❌ Bad: blocks a thread on async work
        let gate = DispatchSemaphore(value: 0)
        Task {
            await work()
            gate.signal()
        }
        gate.wait()
        ```

        Why it's wrong: it can deadlock the cooperative pool.

        ```swift
        // ✅ Good: stay async
        await work()
        ```
        """

    private static let user = """
        func run() {
            let lock = DispatchSemaphore(value: 0)
            Task {
                await refresh()
                lock.signal()
            }
            lock.wait()
        }
        """

    /// A second skill whose ordinary code uses the same framework words: with one skill alone
    /// no name is vocabulary (see ``SignatureSet``).
    private static let other = """
        ---
        name: other
        description: Other skill for checking. Use when testing skill check.
        ---
        # Other

        ```swift
        let semaphore = DispatchSemaphore(value: 1)
        semaphore.wait()
        defer { semaphore.signal() }
        Task { await work() }
        ```
        """

    @Test func aChangedAntiPatternIsMatchedAfterAnIncrementalBuild() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(Self.other, to: "skills/other/SKILL.md")
        _ = try folder.write(
            Self.skill.replacingOccurrences(
                of: """
                    let gate = DispatchSemaphore(value: 0)
                    Task {
                        await work()
                        gate.signal()
                    }
                    gate.wait()
                    """, with: "@Published var count = 0"), to: "skills/demo/SKILL.md")
        let code = try folder.write(Self.user, to: "code/Run.swift")
        let index = SkillIndex(
            roots: [folder.url.appendingPathComponent("skills")], indexURL: folder.url.appendingPathComponent("index.sqlite"))
        try index.refresh()
        let before = try index.checker().check(paths: [code.path], minScore: 0.9).findings
        #expect(before.isEmpty)

        let skillFile = try folder.write(Self.skill, to: "skills/demo/SKILL.md")
        let old = try FileManager.default.attributesOfItem(atPath: skillFile.path)[.modificationDate] as! Date
        try FileManager.default.setAttributes([.modificationDate: old.addingTimeInterval(5)], ofItemAtPath: skillFile.path)
        let report = try index.refresh()
        #expect(report.full == false)
        let after = try index.checker().check(paths: [code.path]).findings
        #expect(after.map(\.id) == ["demo/SKILL#demo/anti-pattern-semaphore-around-a-task"])
        #expect(after.first?.line == 2)
        #expect(after.first?.endLine == 5)
        #expect(after.first?.fixCode == "// ✅ Good: stay async\nawait work()\n")

        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("skills/demo"))
        try index.refresh()
        #expect(try index.checker().check(paths: [code.path], minScore: 0).findings.isEmpty)
    }

    @Test func badPathsAreClearErrors() throws {
        let folder = try TemporaryFolder()
        let notes = try folder.write("notes", to: "notes.txt")
        let checker = Checkers.bundled
        #expect(throws: CheckError.notFound(folder.url.path + "/missing.swift")) {
            try checker.check(paths: [folder.url.path + "/missing.swift"])
        }
        #expect(throws: CheckError.unsupported(notes.path)) { try checker.check(paths: [notes.path]) }
        #expect(
            CheckError.unsupported("notes.txt").errorDescription
                == "cannot check notes.txt: not Swift, Python or TypeScript (.swift, .py, .ts, .tsx, .js, .jsx); pass such a file or a folder"
        )
    }

    @Test func foldersAreWalkedForKnownLanguagesSkippingBuildAndHiddenFolders() throws {
        let folder = try TemporaryFolder()
        for path in ["a/B.swift", "a/c.py", "a/d.tsx", "a/e.md", ".hidden/F.swift", "a/.build/G.swift", "node_modules/h.ts", "z.swift"] {
            _ = try folder.write("x", to: path)
        }
        let files = try Checker.files([folder.url.path]).map { String($0.dropFirst(folder.url.path.count + 1)) }
        #expect(files == ["a/B.swift", "a/c.py", "a/d.tsx", "z.swift"])
    }
}
