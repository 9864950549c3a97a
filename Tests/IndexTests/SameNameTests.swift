import Foundation
import SkillParser
import Testing

@testable import SkillIndex

/// The same skill name twice in one root (issue 27): both are indexed, the later folder in path
/// order as `NAME~2`, whatever order the copies came in, and an incremental build ends in the
/// index a full build makes.
@Suite struct SameNameTests {
    static func skill(_ name: String, _ text: String) -> String {
        "---\nname: \(name)\ndescription: \(text). Use when testing.\n---\n# \(text)\n\n## Notes\n\n\(text) notes.\n"
    }

    /// What an index holds, in a form two builds can be compared by: each skill's folder and
    /// names, each document's content hash, each entry's id, skill and document, the warnings.
    static func snapshot(_ index: SkillIndex) throws -> [String] {
        try index.locked {
            let db = try index.database()
            return try db.query("SELECT folder, root_index, own_name, ifnull(name, '-'), description FROM skills ORDER BY folder") {
                "skill \($0.text(0)) \($0.int(1)) \($0.text(2)) \($0.text(3)) \($0.text(4))"
            }
                + db.query("SELECT file, folder, path, hash, diagnostics FROM documents ORDER BY file") {
                    "document \($0.text(0)) \($0.text(1)) \($0.text(2)) \($0.text(3)) \($0.text(4))"
                }
                + db.query("SELECT e.id, e.skill, d.file FROM entries e JOIN documents d ON d.id = e.doc ORDER BY e.id") {
                    "entry \($0.text(0)) \($0.text(1)) \($0.text(2))"
                }
                + db.query("SELECT value FROM meta WHERE key = 'duplicates'") { "duplicates \($0.text(0))" }
        }
    }

    /// What `index` holds and a full build of the same roots does not (`-`), and the reverse
    /// (`+`): empty when the incremental build ended where a full build would.
    static func differences(_ index: SkillIndex, _ box: Sandbox) throws -> [String] {
        let mine = try snapshot(index)
        let full = try fullBuild(box)
        return mine.filter { !full.contains($0) }.map { "- " + $0 } + full.filter { !mine.contains($0) }.map { "+ " + $0 }
    }

    /// The snapshot of a full build of the same roots into a file of its own.
    static func fullBuild(_ box: Sandbox) throws -> [String] {
        let url = box.folder.appendingPathComponent("full-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        let full = SkillIndex(roots: [box.skills], indexURL: url)
        try full.refresh(full: true)
        return try snapshot(full)
    }

    @Test func aCopyInAFolderThatSortsFirstTakesTheNameAndTheOtherBecomesNameTwo() throws {
        let box = try Sandbox(fixtures: nil)
        let index = box.index()
        try box.write(Self.skill("dup", "Original copy"), to: "b/dup/SKILL.md")
        try index.refresh()
        try FileManager.default.copyItem(at: box.skills.appendingPathComponent("b"), to: box.skills.appendingPathComponent("a"))
        let report = try index.refresh()
        #expect(report.added.map(\.name) == ["dup"])
        #expect(report.updated.map(\.name) == ["dup~2"])
        #expect(
            report.diagnostics.map(\.message) == [
                "skill 'dup' is also at \(box.skills.path)/a/dup/SKILL.md; this one is indexed as 'dup~2'; rename one of them"
            ])
        #expect(report.diagnostics.map(\.path) == ["b/dup/SKILL.md"])
        #expect(try index.skills().map { "\($0.name) \($0.path)" } == ["dup a/dup", "dup~2 b/dup"])
        #expect(try index.entry(id: "dup~2")?.skill == "dup~2")
        #expect(try index.search("original").results.isEmpty == false)
        let differences = try Self.differences(index, box)
        #expect(differences == [])
    }

    @Test func deletingAndRestoringTheFirstCopyRenamesBothWays() throws {
        let box = try Sandbox(fixtures: nil)
        let index = box.index()
        try box.write(Self.skill("dup", "First copy"), to: "a/dup/SKILL.md")
        try box.write(Self.skill("dup", "Second copy"), to: "b/dup/SKILL.md")
        try index.refresh()
        #expect(try index.skills().map { "\($0.name) \($0.path)" } == ["dup a/dup", "dup~2 b/dup"])
        let first = box.skills.appendingPathComponent("a/dup/SKILL.md")
        let kept = try Data(contentsOf: first)
        try FileManager.default.removeItem(at: first)
        try index.refresh()
        #expect(try index.skills().map { "\($0.name) \($0.path)" } == ["dup b/dup"])
        try #expect(Self.differences(index, box) == [])
        try kept.write(to: first)
        try index.refresh()
        #expect(try index.skills().map { "\($0.name) \($0.path)" } == ["dup a/dup", "dup~2 b/dup"])
        #expect(try index.skill(named: "dup~2")?.description == "Second copy. Use when testing.")
        try #expect(Self.differences(index, box) == [])
    }

    @Test func renamingAFolderPastTheOtherSwapsTheNames() throws {
        let box = try Sandbox(fixtures: nil)
        let index = box.index()
        try box.write(Self.skill("dup", "First copy"), to: "a/dup/SKILL.md")
        try box.write(Self.skill("dup", "Second copy"), to: "b/dup/SKILL.md")
        try index.refresh()
        try FileManager.default.moveItem(at: box.skills.appendingPathComponent("a"), to: box.skills.appendingPathComponent("c"))
        try index.refresh()
        #expect(try index.skills().map { "\($0.name) \($0.path)" } == ["dup b/dup", "dup~2 c/dup"])
        try #expect(Self.differences(index, box) == [])
    }

    @Test func aSkillNamedLikeANumberedCopyGetsANameOfItsOwn() throws {
        let box = try Sandbox(fixtures: nil)
        let index = box.index()
        try box.write(Self.skill("dup", "First copy"), to: "a/dup/SKILL.md")
        try box.write(Self.skill("dup", "Second copy"), to: "b/dup/SKILL.md")
        try box.write(Self.skill("dup~2", "Literal name"), to: "c/dup/SKILL.md")
        try index.refresh()
        #expect(try index.skills().map { "\($0.name) \($0.path)" } == ["dup a/dup", "dup~2 b/dup", "dup~2~2 c/dup"])
        try #expect(Self.differences(index, box) == [])
    }

    /// Delete, re-create, copy and rename same-name skill folders, a seeded sequence of 60
    /// steps; after each an incremental build must succeed and equal a full build.
    @Test func churnOfSameNameFoldersKeepsTheIncrementalIndexEqualToAFullBuild() throws {
        let box = try Sandbox(fixtures: nil)
        let index = box.index()
        let folders = ["a", "b", "c", "d"]
        var random = SplitMix(seed: 27)
        try box.write(Self.skill("dup", "Seed copy"), to: "b/dup/SKILL.md")
        try box.write("# Reference\n\nShared reference text.\n", to: "b/dup/references/ref.md")
        try box.write(Self.skill("other", "Other skill"), to: "o/other/SKILL.md")
        try index.refresh()
        var removedSkillFiles: [String: Data] = [:]
        for step in 0..<60 {
            let folder = folders[Int(random.next() % UInt64(folders.count))]
            let url = box.skills.appendingPathComponent("\(folder)/dup")
            let skillFile = url.appendingPathComponent("SKILL.md")
            let exists = FileManager.default.fileExists(atPath: url.path)
            var action = ""
            switch random.next() % 5 {
            case 0 where exists:
                action = "delete folder \(folder)"
                try FileManager.default.removeItem(at: url)
                removedSkillFiles[folder] = nil
            case 1 where FileManager.default.fileExists(atPath: skillFile.path):
                action = "delete SKILL.md of \(folder)"
                removedSkillFiles[folder] = try Data(contentsOf: skillFile)
                try FileManager.default.removeItem(at: skillFile)
            case 2 where removedSkillFiles[folder] != nil:
                action = "restore SKILL.md of \(folder)"
                try removedSkillFiles[folder]!.write(to: skillFile)
                removedSkillFiles[folder] = nil
            case 3 where exists:
                let target = folders[Int(random.next() % UInt64(folders.count))]
                let to = box.skills.appendingPathComponent("\(target)/dup")
                guard !FileManager.default.fileExists(atPath: to.path) else { fallthrough }
                action = "rename \(folder) to \(target)"
                try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: url, to: to)
                removedSkillFiles[target] = removedSkillFiles.removeValue(forKey: folder)
            default:
                action = "write copy \(folder)"
                try? FileManager.default.removeItem(at: url)
                removedSkillFiles[folder] = nil
                try box.write(Self.skill("dup", "Copy \(step)"), to: "\(folder)/dup/SKILL.md")
                try box.write("# Reference \(step)\n\nReference of step \(step).\n", to: "\(folder)/dup/references/ref.md")
            }
            do {
                try index.refresh()
            } catch {
                Issue.record("step \(step): \(action): \(error)")
                return
            }
            try #expect(Self.differences(index, box) == [], "step \(step): \(action)")
        }
    }
}

/// A small seeded generator: the same sequence on every run and platform.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
