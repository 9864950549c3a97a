import Foundation
import Testing

/// Issue 27, item 1, end to end: a second `dup` folder in one root, in a folder that sorts
/// first, breaks nothing; deleting and restoring the first copy neither; and the incremental
/// index ends as a full build's.
@Suite struct SameNameCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-same-name-\(UUID().uuidString)")
    var skills: URL { folder.appendingPathComponent("s") }
    var index: String { folder.appendingPathComponent("index.sqlite").path }

    func skill(_ arguments: [String], index: String? = nil) throws -> BinaryRunner.Result {
        try BinaryRunner.run([arguments[0], "--skills", skills.path, "--index", index ?? self.index] + arguments.dropFirst())
    }

    /// `list --json` and the ids a search for every skill's word finds: what two indexes are
    /// compared by.
    func contents(index: String? = nil) throws -> [String] {
        let list = try skill(["list", "--json"], index: index)
        let search = try skill(["search", "--json", "--limit", "100", "copy"], index: index)
        #expect(list.status == 0)
        #expect(search.status == 0)
        let results = (try JSONSerialization.jsonObject(with: search.stdoutData) as? [String: Any])?["results"] as? [[String: Any]] ?? []
        return [list.stdout] + results.compactMap { $0["id"] as? String }.sorted()
    }

    @Test func aSecondCopyInOneRootIsIndexedAsNameTwoAndBreaksNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = skills.appendingPathComponent("b/dup")
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        try Data("---\nname: dup\ndescription: Original copy. Use when testing.\n---\n# Original\n\nOriginal copy text.\n".utf8)
            .write(to: first.appendingPathComponent("SKILL.md"))
        #expect(try skill(["build"]).status == 0)

        // The copy sorts first: it takes the name, the other becomes dup~2, with a warning naming both.
        try FileManager.default.copyItem(at: skills.appendingPathComponent("b"), to: skills.appendingPathComponent("a"))
        let build = try skill(["build"])
        #expect(build.status == 0)
        #expect(build.stdout == "+ dup (2 entries)\n~ dup~2 (2 entries)\n2 skills, 4 entries (2 documents parsed) in \(index)\n")
        let warning =
            "b/dup/SKILL.md:1:1: warning: skill 'dup' is also at \(skills.path)/a/dup/SKILL.md; this one is indexed as 'dup~2'; rename one of them [skill.duplicate-name]\n"
        #expect(build.stderr == warning)
        let search = try skill(["search", "--json", "original"])
        #expect(search.status == 0)
        #expect(search.stderr == "")
        let list = try skill(["list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("dup~2"))
        #expect(try contents() == contents(index: fullIndex()))

        // The first copy's SKILL.md deleted, then restored.
        let skillFile = skills.appendingPathComponent("a/dup/SKILL.md")
        let kept = try Data(contentsOf: skillFile)
        try FileManager.default.removeItem(at: skillFile)
        let afterDelete = try skill(["build"])
        #expect(afterDelete.status == 0)
        #expect(afterDelete.stderr == "")
        #expect(try contents() == contents(index: fullIndex()))
        try kept.write(to: skillFile)
        let afterRestore = try skill(["build"])
        #expect(afterRestore.status == 0)
        #expect(afterRestore.stderr == warning)
        #expect(try skill(["build"]).stdout == "2 skills, 4 entries (up to date) in \(index)\n")
        #expect(try contents() == contents(index: fullIndex()))
        let doctor = try skill(["doctor"])
        #expect(doctor.stdout.contains("2 skills"))
    }

    /// A new index of the same roots, built with `build --full`.
    func fullIndex() throws -> String {
        let path = folder.appendingPathComponent("full-\(UUID().uuidString).sqlite").path
        #expect(try skill(["build", "--full"], index: path).status == 0)
        return path
    }
}
