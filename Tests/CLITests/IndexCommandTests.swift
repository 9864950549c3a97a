import Foundation
import TestSupport
import Testing

/// `skill build`, `search`, `show` and `list` end to end: the real binary over the corpus and the
/// bundled skills, each run with its own HOME and index.
@Suite struct IndexCommandTests {
    static let skills = packageRoot.appendingPathComponent("skills")

    /// A fresh index path of its own.
    func indexPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cli-index-\(UUID().uuidString).sqlite").path
    }

    @Test(.needsCorpus) func searchOverTheCorpusFindsTestingSwiftFirst() throws {
        let index = indexPath()
        defer { try? FileManager.default.removeItem(atPath: index) }
        let result = try BinaryRunner.run([
            "search", "--skills", corpus.path, "--index", index, "--json", "--limit", "3", "swift testing expect",
        ])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(json["schemaVersion"] as? Int == 1)
        #expect(json["query"] as? String == "swift testing expect")
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.count == 3)
        #expect(results.allSatisfy { $0["skill"] as? String == "testing-swift" })
        let source = try #require(results.first?["source"] as? [String: Any])
        #expect(source["path"] as? String == "makgunay__claude-swift-skills/testing-swift/SKILL.md")
        #expect(Set(results[0].keys) == ["id", "kind", "title", "skill", "breadcrumb", "snippet", "score", "source"])
    }

    @Test func aSkillInTwoRootsIsOneResultThatSaysWhereElse() throws {
        let index = indexPath()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("cli-copy-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(atPath: index)
            try? FileManager.default.removeItem(at: copy)
        }
        try FileManager.default.copyItem(at: Self.skills, to: copy)
        let result = try BinaryRunner.run(
            ["search", "--skills", Self.skills.path, "--skills", copy.path, "--index", index, "--limit", "1", "property wrapper"],
            environment: ["COLUMNS": "400"])
        #expect(result.status == 0)
        let other = copy.appendingPathComponent("swiftui-architecture/SKILL.md").path
        #expect(result.stdout.hasPrefix(" 1. decision-tree  Property Wrapper Decision Tree\n"))
        #expect(result.stdout.contains("\n    also at \(other):65\n"))
        let json = try BinaryRunner.run([
            "search", "--skills", Self.skills.path, "--skills", copy.path, "--index", index, "--json", "--limit", "1", "property wrapper",
        ])
        let results = try #require(
            (try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["results"] as? [[String: Any]])
        let alsoAt = try #require(results.first?["alsoAt"] as? [[String: Any]])
        #expect(alsoAt.map { $0["absolutePath"] as? String } == [other])
    }

    @Test func buildThenIncrementalBuildThenShow() throws {
        let index = indexPath()
        defer { try? FileManager.default.removeItem(atPath: index) }
        let first = try BinaryRunner.run(["build", "--skills", Self.skills.path, "--index", index])
        #expect(first.status == 0)
        #expect(first.stdout.contains("5 skills"))
        let again = try BinaryRunner.run(["build", "--skills", Self.skills.path, "--index", index])
        #expect(again.status == 0)
        #expect(again.stdout.contains("up to date"))
        let id = "swiftui-architecture/SKILL#swiftui-architecture/property-wrapper-decision-tree"
        let show = try BinaryRunner.run(["show", "--skills", Self.skills.path, "--index", index, id])
        #expect(show.status == 0)
        #expect(show.stdout.hasPrefix("decision-tree  Property Wrapper Decision Tree\n"))
        #expect(show.stdout.contains("Which property wrapper does this model need?"))
        let showJSON = try BinaryRunner.run(["show", "--skills", Self.skills.path, "--index", index, "--json", id])
        let entry = try #require(try JSONSerialization.jsonObject(with: showJSON.stdoutData) as? [String: Any])
        #expect(entry["schemaVersion"] as? Int == 1)
        let nodes = try #require((entry["entry"] as? [String: Any])?["nodes"] as? [[String: Any]])
        #expect(nodes.first?["label"] as? String == "Which property wrapper does this model need?")
    }

    @Test func showAnUnknownIdSuggestsNearOnes() throws {
        let index = indexPath()
        defer { try? FileManager.default.removeItem(atPath: index) }
        let result = try BinaryRunner.run([
            "show", "--skills", Self.skills.path, "--index", index,
            "swiftui-architecture/SKILL#swiftui-architecture/property-wrapper-decision-tre",
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: no entry has the id 'swiftui-architecture/SKILL#swiftui-architecture/property-wrapper-decision-tre'; did you mean swiftui-architecture/SKILL#swiftui-architecture/property-wrapper-decision-tree?\n"
        )
    }

    @Test func listNamesEveryBundledSkill() throws {
        let index = indexPath()
        defer { try? FileManager.default.removeItem(atPath: index) }
        let result = try BinaryRunner.run(["list", "--skills", Self.skills.path, "--index", index, "--json"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let skills = try #require(json["skills"] as? [[String: Any]])
        #expect(skills.compactMap { $0["name"] as? String } == BundledSkillsCommandTests.names)
    }

    @Test func hostileQueriesAreQueriesNotErrors() throws {
        let index = indexPath()
        defer { try? FileManager.default.removeItem(atPath: index) }
        for query in ["foo-bar AND (", "\"", "*", "NEAR(", String(repeating: "x(", count: 5_000)] {
            let result = try BinaryRunner.run(["search", "--skills", Self.skills.path, "--index", index, "--json", "--", query])
            // 0 with results, 1 without (as grep): never a crash or a usage error.
            #expect([0, 1].contains(result.status), "\(query.prefix(20)): \(result.stderr)")
            #expect((try? JSONSerialization.jsonObject(with: result.stdoutData)) != nil)
        }
    }
}
