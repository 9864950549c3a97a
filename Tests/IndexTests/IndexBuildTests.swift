import Foundation
import SkillParser
import Testing

@testable import SkillIndex

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct IndexBuildTests {
    @Test func fullBuildIndexesEverySkill() throws {
        let box = try Sandbox()
        let report = try box.index().refresh()
        #expect(report.full)
        #expect(report.added.map(\.name) == ["navigation", "swiftui-state"])
        #expect(report.documentsParsed == 3)
        #expect(report.skillCount == 2)
        let skills = try box.index().skills()
        #expect(skills.map(\.name) == ["navigation", "swiftui-state"])
        #expect(skills[0].documents == ["navigation/SKILL.md", "navigation/references/deep-links.md"])
        #expect(skills[0].folder.standardizedFileURL.path == box.skills.appendingPathComponent("navigation").resolvingSymlinksInPath().path)
        #expect(skills[0].entries["skill"] == 1)
    }

    /// The scanner shares the Parser's walker: a SKILL.md linked from outside the root makes no
    /// skill (it used to be indexed), and a named pipe is never read.
    @Test func linksOutOfTheRootAndPipesAreNotIndexed() throws {
        let box = try Sandbox()
        try box.write("---\nname: far\ndescription: d\n---\n# Far\n", to: "../outside/SKILL.md")
        try FileManager.default.createDirectory(at: box.skills.appendingPathComponent("far"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: box.skills.appendingPathComponent("far/SKILL.md").path,
            withDestinationPath: box.folder.appendingPathComponent("outside/SKILL.md").path)
        #expect(mkfifo(box.skills.appendingPathComponent("navigation/pipe.md").path, 0o644) == 0)
        let report = try box.index().refresh()
        #expect(report.added.map(\.name) == ["navigation", "swiftui-state"])
        #expect(try box.index().skills()[0].documents == ["navigation/SKILL.md", "navigation/references/deep-links.md"])
    }

    @Test func unchangedIndexParsesNothing() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        let again = try index.refresh()
        #expect(!again.changed)
        #expect(again.documentsParsed == 0)
        #expect(try !index.isStale())
    }

    @Test func editingOneDocumentReparsesOnlyIt() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        try box.write(
            "# Deep links\n\nUniversal links need an apple-app-site-association file.\n", to: "navigation/references/deep-links.md")
        #expect(try index.isStale())
        let report = try index.refresh()
        #expect(!report.full)
        #expect(report.documentsParsed == 1)
        #expect(report.updated.map(\.name) == ["navigation"])
        #expect(report.added.isEmpty && report.removed.isEmpty)
        #expect(try index.search("association").results.first?.id == "navigation/references/deep-links#deep-links")
        #expect(try index.search("pagination").results.isEmpty)
    }

    @Test func touchingWithoutChangeParsesNothing() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        try box.bumpModificationDate("navigation/SKILL.md")
        #expect(try index.isStale())
        let report = try index.refresh()
        #expect(report.documentsParsed == 0)
        #expect(!report.changed)
        #expect(try !index.isStale())
    }

    @Test func editingSkillFileReparsesOnlyItsSkill() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        let text = try String(contentsOf: box.skills.appendingPathComponent("swiftui-state/SKILL.md"), encoding: .utf8)
        try box.write(text + "\n## Bindings\n\nPass a Binding to a child view.\n", to: "swiftui-state/SKILL.md")
        let report = try index.refresh()
        #expect(report.documentsParsed == 1)
        #expect(report.updated.map(\.name) == ["swiftui-state"])
        #expect(try index.search("Binding").results.first?.title == "Bindings")
    }

    @Test func addingADocumentIndexesIt() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        try box.write("# Tab views\n\nTabView holds several stacks.\n", to: "navigation/references/tabs.md")
        let report = try index.refresh()
        #expect(report.documentsParsed == 1)
        #expect(try index.search("TabView").results.first?.id == "navigation/references/tabs#tab-views")
    }

    @Test func deletingASkillRemovesItsEntries() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        #expect(try index.entry(id: "navigation") != nil)
        try FileManager.default.removeItem(at: box.skills.appendingPathComponent("navigation"))
        let report = try index.refresh()
        #expect(report.removed.map(\.name) == ["navigation"])
        #expect(report.documentsParsed == 0)
        #expect(try index.entry(id: "navigation") == nil)
        #expect(try index.search("sheets").results.isEmpty)
        #expect(try index.skills().map(\.name) == ["swiftui-state"])
    }

    @Test func interruptedIncrementalBuildLeavesTheOldIndex() throws {
        let box = try Sandbox()
        try box.index().refresh()
        try box.write(
            "# Deep links\n\nUniversal links need an apple-app-site-association file.\n", to: "navigation/references/deep-links.md")
        let crashing = box.index()
        crashing.stopAfterDocuments = 1
        #expect(throws: IndexError.interrupted) { try crashing.refresh() }
        // Another reader still sees the old index, whole.
        let reader = box.index()
        #expect(try reader.search("pagination").results.first?.title == "Cursor pagination")
        #expect(try reader.search("association").results.isEmpty)
        #expect(try reader.isStale())
        // The next refresh finishes the job.
        #expect(try reader.refresh().documentsParsed == 1)
        #expect(try reader.search("association").results.count == 1)
    }

    @Test func interruptedFullBuildLeavesNoIndex() throws {
        let box = try Sandbox()
        let crashing = box.index()
        crashing.stopAfterDocuments = 2
        #expect(throws: IndexError.interrupted) { try crashing.refresh() }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: box.indexURL.deletingLastPathComponent().path)
        #expect(leftovers.isEmpty)
    }

    @Test func interruptedRebuildKeepsTheOldIndexAnswering() throws {
        let box = try Sandbox()
        try box.index().refresh()
        try box.write(
            "# Deep links\n\nUniversal links need an apple-app-site-association file.\n", to: "navigation/references/deep-links.md")
        let crashing = box.index()
        crashing.stopAfterDocuments = 1
        #expect(throws: IndexError.interrupted) { try crashing.refresh(full: true) }
        #expect(try box.index().search("pagination").results.count == 1)
    }

    @Test func concurrentRefreshesAreSerialised() async throws {
        let box = try Sandbox()
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { try box.index().refresh().entryCount }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(Set(counts).count == 1)
        #expect(try box.index().refresh().documentsParsed == 0)
    }

    @Test func otherRootsRebuildTheIndex() throws {
        let box = try Sandbox()
        try box.index().refresh()
        let only = box.skills.appendingPathComponent("navigation")
        let other = SkillIndex(roots: [only], indexURL: box.indexURL)
        let report = try other.refresh()
        #expect(report.full)
        #expect(try other.skills().map(\.name) == ["navigation"])
    }

    @Test func duplicateNamesInOneRootGetASuffix() throws {
        let box = try Sandbox()
        try box.write(
            "---\nname: navigation\ndescription: Another copy. Use never.\n---\n# Copy\n\nSecond copy.\n", to: "zz-copy/navigation/SKILL.md"
        )
        let index = box.index()
        let report = try index.refresh()
        #expect(report.added.map(\.name) == ["navigation", "navigation~2", "swiftui-state"])
        #expect(report.diagnostics.contains { $0.id == .duplicateSkill && $0.path == "zz-copy/navigation/SKILL.md" })
        #expect(try index.entry(id: "navigation~2")?.skill == "navigation~2")
        #expect(try index.diagnostics().contains { $0.id == .duplicateSkill })
    }

    @Test func anEarlierRootShadowsALaterOne() throws {
        let box = try Sandbox()
        let project = box.folder.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("navigation"), withIntermediateDirectories: true)
        try Data("---\nname: navigation\ndescription: The project's own. Use here.\n---\n# Project navigation\n\nRouter.\n".utf8)
            .write(to: project.appendingPathComponent("navigation/SKILL.md"))
        let index = SkillIndex(roots: [project, box.skills], indexURL: box.indexURL)
        let report = try index.refresh()
        #expect(report.added.map(\.name) == ["navigation", "swiftui-state"])
        #expect(report.diagnostics.contains { $0.id == .duplicateSkill && $0.path == "navigation/SKILL.md" })
        #expect(try index.skill(named: "navigation")?.description == "The project's own. Use here.")
        // The shadowing skill goes away: the other one takes its place.
        try FileManager.default.removeItem(at: project.appendingPathComponent("navigation"))
        let after = try index.refresh()
        #expect(after.updated.map(\.name) == ["navigation"] || after.added.map(\.name) == ["navigation"])
        #expect(try index.skill(named: "navigation")?.description.hasPrefix("Navigation in SwiftUI") == true)
    }

    @Test func showReturnsTheWholeEntry() throws {
        let box = try Sandbox()
        let index = box.index()
        try index.refresh()
        let hit = try #require(try index.search("model stored plain property", kind: .antiPattern).results.first)
        let entry = try #require(try index.entry(id: hit.id))
        guard case .antiPattern(let anti) = entry.details else {
            Issue.record("not an anti-pattern: \(entry.kind)")
            return
        }
        #expect(anti.fix != nil)
        #expect(try index.entry(id: anti.fix!)?.code.first?.verdict == .good)
    }
}

@Suite struct IndexConfigurationTests {
    @Test func skillPathAndCacheFromTheEnvironment() throws {
        let box = try Sandbox()
        let config = try IndexConfiguration.resolve(environment: box.environment, currentDirectory: box.folder)
        #expect(config.roots.map(\.path) == [box.skills.resolvingSymlinksInPath().path])
        let expected = box.folder.appendingPathComponent("xdg/skill/index-\(IndexConfiguration.rootsHash(config.roots)).sqlite")
        #expect(config.indexURL.path == expected.standardizedFileURL.path)
    }

    @Test func defaultRootsInOrder() throws {
        let box = try Sandbox()
        let home = box.folder.appendingPathComponent("home")
        let cwd = box.folder.appendingPathComponent("work")
        for path in ["home/.codex/skills", "home/.claude/skills", "work/.claude/skills", "work/skills", "bundled"] {
            try FileManager.default.createDirectory(at: box.folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        let env = ["HOME": home.path, "SKILL_BUNDLED": box.folder.appendingPathComponent("bundled").path]
        let config = try IndexConfiguration.resolve(environment: env, currentDirectory: cwd)
        let real = { (p: String) in box.folder.appendingPathComponent(p).resolvingSymlinksInPath().path }
        #expect(
            config.roots.map(\.path) == [
                real("work/skills"), real("work/.claude/skills"), real("home/.claude/skills"), real("home/.codex/skills"), real("bundled"),
            ])
        #expect(config.indexURL.path.hasPrefix(home.appendingPathComponent(".cache/skill/index-").path))
    }

    @Test func explicitOptionsWin() throws {
        let box = try Sandbox()
        var env = box.environment
        env["SKILL_INDEX"] = box.folder.appendingPathComponent("env.sqlite").path
        let fromEnv = try IndexConfiguration.resolve(environment: env, currentDirectory: box.folder)
        #expect(fromEnv.indexURL.lastPathComponent == "env.sqlite")
        let explicit = try IndexConfiguration.resolve(
            skills: [box.skills.path, box.skills.path + "/../skills"], index: "flag.sqlite", environment: env, currentDirectory: box.folder)
        #expect(explicit.indexURL.path == box.folder.appendingPathComponent("flag.sqlite").standardizedFileURL.path)
        #expect(explicit.roots.count == 1)
    }

    @Test func missingExplicitRootIsAnError() throws {
        let box = try Sandbox()
        #expect(throws: IndexError.rootNotFound("nope")) {
            try IndexConfiguration.resolve(skills: ["nope"], environment: box.environment, currentDirectory: box.folder)
        }
    }

    @Test func otherRootsGetAnotherIndex() {
        let a = IndexConfiguration.rootsHash([URL(fileURLWithPath: "/a")])
        let b = IndexConfiguration.rootsHash([URL(fileURLWithPath: "/b")])
        #expect(a != b)
        #expect(a.count == 12 || a.count < 12)
    }

    /// An index file deleted while a process has it open leaves its write-ahead log behind; the
    /// rebuilt index must not take that log's pages (the old content) with the name.
    @Test func aDeletedIndexIsRebuiltWithoutItsLeftoverLog() throws {
        let box = try Sandbox(fixtures: nil)
        let skill = { (topic: String) in "---\nname: notes\ndescription: Notes.\n---\n# Notes\n\n## \(topic)\nAbout \(topic).\n" }
        try box.write(skill("alpaca"), to: "notes/SKILL.md")
        let index = box.index()
        try index.refresh()
        try box.write(skill("bison") + "\n", to: "notes/SKILL.md")
        try index.refresh()  // an incremental refresh: its pages are in the log while the index is open
        #expect(FileManager.default.fileExists(atPath: box.indexURL.path + "-wal"))
        try FileManager.default.removeItem(at: box.indexURL)
        try box.write(skill("camel") + "\n\n", to: "notes/SKILL.md")
        #expect(try index.search("camel").results.map(\.title) == ["camel"])
        #expect(try index.search("bison").results.isEmpty)
        #expect(try box.index().search("camel").results.map(\.title) == ["camel"])
    }
}
