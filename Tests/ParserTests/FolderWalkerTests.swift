import Foundation
import SkillParser
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one walker behind the finder, the loader, the index's scanner and the packer: the rules
/// that used to differ between them, pinned.
@Suite struct FolderWalkerTests {
    let fm = FileManager.default

    func walk(_ root: URL, rules: WalkRules = .skills) -> [WalkedFolder] {
        var folders: [WalkedFolder] = []
        FolderWalker.walk(root, rules: rules) { folders.append($0) }
        return folders
    }

    @Test func foldersInSortedDepthFirstOrderWithTheirSkillAndStamps() throws {
        let folder = try TemporaryFolder()
        try folder.write("a/SKILL.md", "---\nname: a\ndescription: d\n---\n")
        try folder.write("a/references/guide.md", "# Guide\n")
        try folder.write("a/inner/skill.md", "---\nname: inner\ndescription: d\n---\n")
        try folder.write("b/notes.md", "12345")
        let folders = walk(folder.url)
        #expect(folders.map(\.relativePath) == [".", "a", "a/inner", "a/references", "b"])
        #expect(folders.map(\.skillFile) == [nil, "SKILL.md", "skill.md", nil, nil])
        #expect(folders.map(\.skill) == [nil, "a", "a/inner", "a", nil])
        #expect(
            folders.map { $0.files.map(\.path) } == [[], ["a/SKILL.md"], ["a/inner/skill.md"], ["a/references/guide.md"], ["b/notes.md"]])
        #expect(folders[4].files[0].stamp.size == 5)
        #expect(folders.allSatisfy { $0.stamp.isDirectory })
    }

    @Test func stoppingAtSkillsLeavesNestedSkillsOut() throws {
        let folder = try TemporaryFolder()
        try folder.write("s/SKILL.md", "x")
        try folder.write("s/inner/SKILL.md", "x")
        try folder.write("s/inner/deep/notes.md", "x")
        try folder.write("s/docs/guide.md", "x")
        var paths: [String] = []
        FolderWalker.walk(folder.url.appendingPathComponent("s"), stopsAtSkills: true) { paths += $0.files.map(\.path) }
        #expect(paths == ["SKILL.md", "docs/guide.md"])
    }

    /// The finder used to walk a folder twice when a link inside the root led to it; the index's
    /// scanner walked it once. Now every caller walks it once, the first time it is met.
    @Test func aFolderReachedThroughALinkIsWalkedOnce() throws {
        let folder = try TemporaryFolder()
        try folder.write("b/SKILL.md", "---\nname: b\ndescription: d\n---\n")
        try fm.createSymbolicLink(atPath: folder.url.appendingPathComponent("a").path, withDestinationPath: "b")
        try fm.createSymbolicLink(atPath: folder.url.appendingPathComponent("b/loop").path, withDestinationPath: "..")
        #expect(SkillFinder.skillFolders(in: folder.url).map(\.lastPathComponent) == ["a"])
        #expect(walk(folder.url).map(\.relativePath) == [".", "a"])
    }

    /// The index's scanner used to take a SKILL.md that links out of the root as a skill; the
    /// finder did not. Now no caller follows it: links out of a root are never followed.
    @Test func aSkillFileLinkedFromOutsideTheRootMakesNoSkill() throws {
        let outside = try TemporaryFolder()
        try outside.write("SKILL.md", "---\nname: far\ndescription: d\n---\n")
        let folder = try TemporaryFolder()
        try folder.write("far/notes.md", "# Notes\n")
        try fm.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("far/SKILL.md").path,
            withDestinationPath: outside.url.appendingPathComponent("SKILL.md").path)
        let far = try #require(walk(folder.url).first { $0.relativePath == "far" })
        #expect(far.skillFile == nil)
        #expect(far.files.map(\.kind) == [.linkOutside, .file])
        #expect(SkillFinder.skillFolders(in: folder.url).isEmpty)
    }

    /// The index's scanner used to take any non-folder named `*.md` as a document, a named pipe
    /// too (reading it blocks for ever); the packer listed a link to one. Now only regular files
    /// and links to regular files are reported.
    @Test func pipesAreNeverReported() throws {
        let folder = try TemporaryFolder()
        try folder.write("s/SKILL.md", "---\nname: s\ndescription: d\n---\n")
        #expect(mkfifo(folder.url.appendingPathComponent("s/pipe.md").path, 0o644) == 0)
        try fm.createSymbolicLink(atPath: folder.url.appendingPathComponent("s/link.md").path, withDestinationPath: "pipe.md")
        #expect(walk(folder.url).flatMap { $0.files.map(\.path) } == ["s/SKILL.md"])
        #expect(SkillFiles.list(folder.url.appendingPathComponent("s")).map(\.path) == ["SKILL.md"])
    }

    @Test func skillRulesAndPackRulesLeaveOutTheirOwnNames() throws {
        let folder = try TemporaryFolder()
        for path in [
            "SKILL.md", ".env.local", "x.pyc", ".build/out.md", "node_modules/m.md", ".git/HEAD", ".hidden/h.md", "__pycache__/c.md",
        ] {
            try folder.write(path, "x")
        }
        let skills = walk(folder.url).flatMap { $0.files.map(\.path) }.sorted()
        #expect(skills == [".env.local", ".hidden/h.md", "SKILL.md", "x.pyc"])
        let pack = walk(folder.url, rules: .pack).flatMap { $0.files.map(\.path) }.sorted()
        #expect(pack == [".build/out.md", ".hidden/h.md", "SKILL.md"])
    }

    @Test func linkKindsUnderThePackRules() throws {
        let outside = try TemporaryFolder()
        try outside.write("secret.txt", "s")
        let folder = try TemporaryFolder()
        try folder.write("SKILL.md", "x")
        try folder.write("docs/big.md", "0123456789")
        try fm.createSymbolicLink(atPath: folder.url.appendingPathComponent("alias.md").path, withDestinationPath: "docs/big.md")
        try fm.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("leak.txt").path,
            withDestinationPath: outside.url.appendingPathComponent("secret.txt").path)
        try fm.createSymbolicLink(atPath: folder.url.appendingPathComponent("more").path, withDestinationPath: "docs")
        try fm.createSymbolicLink(atPath: folder.url.appendingPathComponent("gone.md").path, withDestinationPath: "missing.md")
        let files = walk(folder.url, rules: .pack).flatMap(\.files)
        #expect(files.map(\.path) == ["SKILL.md", "alias.md", "gone.md", "leak.txt", "more", "docs/big.md"])
        #expect(files.map(\.kind) == [.file, .linkInside, .linkBroken, .linkOutside, .linkToFolder, .file])
        #expect(files[1].stamp.size == 10)
        // The skill rules walk the linked folder instead.
        #expect(walk(folder.url).map(\.relativePath) == [".", "docs"])
    }
}
