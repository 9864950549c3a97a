import Foundation
import TestSupport
import Testing

/// `skill search` as search tools behave: exit 1 on no match, filters checked, one-line and JSON
/// forms an editor can open, `file:line` kept whole; `skill show N` and `skill show SKILLNAME`.
@Suite struct SearchCommandTests {
    static let skills = packageRoot.appendingPathComponent("skills")
    static let kinds = "skill, anti-pattern, checklist, decision-tree, pattern, table, example, section"

    /// Runs `skill ARGS --skills <bundled> --index <own index>`.
    func run(_ arguments: [String], index: String, environment: [String: String] = [:]) throws -> BinaryRunner.Result {
        try BinaryRunner.run(
            [arguments[0], "--skills", Self.skills.path, "--index", index] + arguments.dropFirst(), environment: environment)
    }

    func indexPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("search-cli-\(UUID().uuidString).sqlite").path
    }

    func remove(_ index: String) {
        for suffix in ["", "-wal", "-shm", ".last-search"] { try? FileManager.default.removeItem(atPath: index + suffix) }
    }

    @Test func nothingMatchingExitsOne() throws {
        let index = indexPath()
        defer { remove(index) }
        let text = try run(["search", "zzqqxxnothing"], index: index)
        #expect(text.status == 1)
        #expect(text.stdout == "")
        #expect(text.stderr == "no results for zzqqxxnothing\n")
        // A long query is echoed by its first 80 characters.
        let long = try run(["search", (1...40).map { "zzq\($0)x" }.joined(separator: " ")], index: index)
        #expect(long.status == 1)
        #expect(long.stderr == "no results for " + (1...40).map { "zzq\($0)x" }.joined(separator: " ").prefix(80) + "…\n")
        let json = try run(["search", "--json", "zzqqxxnothing"], index: index)
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        #expect((document["results"] as? [Any])?.isEmpty == true)
    }

    @Test func anUnknownKindIsAUsageErrorListingTheKinds() throws {
        let index = indexPath()
        defer { remove(index) }
        for arguments in [["search", "--kind", "nonsense", "state"], ["search", "kind:nonsense", "state"]] {
            let result = try run(arguments, index: index)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: unknown kind 'nonsense'; kinds: \(Self.kinds)\n"))
        }
    }

    @Test func aLimitAboveTheMaximumIsAUsageError() throws {
        let index = indexPath()
        defer { remove(index) }
        let result = try run(["search", "--limit", "101", "state"], index: index)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --limit must be at most 100: a search ranks its best 100 candidates\n"))
        #expect(try run(["search", "--limit", "100", "state"], index: index).status == 0)
    }

    @Test func anUnknownSkillIsAnErrorNamingTheNearest() throws {
        let index = indexPath()
        defer { remove(index) }
        for arguments in [["search", "--skill", "swiftui-architectur", "state"], ["search", "skill:swiftui-architectur", "state"]] {
            let result = try run(arguments, index: index)
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "error: no skill is named 'swiftui-architectur'; did you mean swiftui-architecture? (`skill list` lists them)\n")
        }
    }

    @Test func lineFormatIsPathLineKindTitle() throws {
        let index = indexPath()
        defer { remove(index) }
        let result = try run(["search", "--format", "line", "--limit", "2", "property wrapper"], index: index)
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                \(Self.skills.path)/swiftui-architecture/SKILL.md:65:decision-tree:Property Wrapper Decision Tree
                \(Self.skills.path)/swiftui-architecture/references/anti-patterns.md:132:anti-pattern:Anti-Pattern: Wrong Property Wrapper

                """)
    }

    @Test func jsonCarriesTheAbsolutePath() throws {
        let index = indexPath()
        defer { remove(index) }
        let result = try run(["search", "--json", "--limit", "1", "property wrapper"], index: index)
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let source = try #require((document["results"] as? [[String: Any]])?.first?["source"] as? [String: Any])
        #expect(source["path"] as? String == "swiftui-architecture/SKILL.md")
        #expect(source["absolutePath"] as? String == "\(Self.skills.path)/swiftui-architecture/SKILL.md")
    }

    @Test func fileAndLineStayWholeAtEightyColumns() throws {
        let index = indexPath()
        defer { remove(index) }
        let result = try run(["search", "--kind", "checklist", "testability"], index: index, environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(2) == [
                " 1. checklist  Testability",
                "    swiftui-architecture › SwiftUI Architect…  swiftui-architecture/SKILL.md:317",
            ])
        #expect(lines.allSatisfy { $0.count <= 80 || $0.hasPrefix("    skill show ") || !$0.contains("SKILL.md:") })
    }

    @Test func snippetsShowTextOrFirstItemsNeverTheBreadcrumbAgain() throws {
        let index = indexPath()
        defer { remove(index) }
        let result = try run(["search", "--json", "--limit", "5", "checklist"], index: index)
        let results = try #require(
            (try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])?["results"] as? [[String: Any]])
        #expect(results.count == 5)
        for hit in results {
            let snippet = try #require(hit["snippet"] as? String)
            let crumbs = ((hit["breadcrumb"] as? [String]) ?? []).joined(separator: " › ")
            #expect(
                !snippet.isEmpty && !crumbs.contains(snippet.replacingOccurrences(of: "**", with: "")), "\(hit["id"] ?? ""): \(snippet)")
        }
        let testability = try #require(results.first { ($0["id"] as? String)?.hasSuffix("/testability") == true })
        #expect(
            testability["snippet"] as? String
                == "[ ] Business logic has unit tests that do not import SwiftUI · [ ] View models or adapters can be tested without rendering a view …"
        )
    }

    static let wrongWrapper =
        "swiftui-architecture/references/anti-patterns#swiftui-architecture-anti-patterns/anti-pattern-wrong-property-wrapper"

    @Test func showAndGetSayEachFactOnce() throws {
        let index = indexPath()
        defer { remove(index) }
        let fixLine = "// ✅ Good: follow the property wrapper decision tree (iOS 17)"
        let show = try run(["show", Self.wrongWrapper], index: index)
        #expect(show.status == 0)
        #expect(show.stdout.components(separatedBy: fixLine).count == 2)
        #expect(show.stdout.contains("\nFix: \(Self.wrongWrapper)~example-2 (lines 156-181, above)\n"))
        let checklist = try run(
            ["show", "swiftui-architecture/SKILL#swiftui-architecture/code-review-checklist/testability"], index: index)
        #expect(checklist.stdout.components(separatedBy: "Business logic has unit tests").count == 2)

        // The server's reply: the fix's code once in the whole JSON-RPC line.
        let input = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
            {"jsonrpc":"2.0","method":"notifications/initialized"}
            {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get","arguments":{"id":"\(Self.wrongWrapper)"}}}

            """
        let served = try BinaryRunner.run(["serve", "--skills", Self.skills.path, "--index", index], input: input)
        let reply = try #require(served.stdout.split(separator: "\n").last.map(String.init))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])
        let result = try #require(json["result"] as? [String: Any])
        let text = try #require((result["content"] as? [[String: Any]])?.first?["text"] as? String)
        #expect(text.components(separatedBy: fixLine).count == 2)
        let structured = try JSONSerialization.data(withJSONObject: result["structuredContent"] ?? [:])
        #expect(!String(decoding: structured, as: UTF8.self).contains("Good: follow the property wrapper"))
    }

    @Test func showNumberOpensTheNthResultOfTheLastSearch() throws {
        let index = indexPath()
        defer { remove(index) }
        let search = try run(["search", "--format", "line", "property wrapper"], index: index)
        #expect(search.status == 0)
        let second = try run(["show", "2"], index: index)
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("anti-pattern  Anti-Pattern: Wrong Property Wrapper\n"))
        let beyond = try run(["show", "99"], index: index)
        #expect(beyond.status == 1)
        #expect(beyond.stderr.hasPrefix("error: the last search has "))
        #expect(beyond.stderr.hasSuffix(" results; `skill show N` takes N from 1 to \(search.stdout.split(separator: "\n").count)\n"))
    }

    @Test func showNumberBeforeAnySearchSaysWhatToDo() throws {
        let index = indexPath()
        defer { remove(index) }
        let result = try run(["show", "1"], index: index)
        #expect(result.status == 1)
        #expect(result.stderr == "error: no search to number: run `skill search QUERY` first, then `skill show N` opens its Nth result\n")
    }

    @Test func eachSearchReplacesTheNumberingAndLeavesNoTemporaryFile() throws {
        let index = indexPath()
        defer { remove(index) }
        #expect(try run(["search", "property wrapper"], index: index).status == 0)
        let json = try run(["search", "--json", "--limit", "2", "property wrapper"], index: index)
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        let ids = try #require((document["results"] as? [[String: Any]])?.compactMap { $0["id"] as? String })
        #expect(ids.count == 2)
        #expect(try String(contentsOfFile: index + ".last-search", encoding: .utf8) == ids.map { $0 + "\n" }.joined())
        let name = URL(fileURLWithPath: index).lastPathComponent
        let beside = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: index).deletingLastPathComponent().path)
        #expect(beside.filter { $0.hasPrefix(name + ".last-search.") } == [])
    }

    @Test func showSkillNameListsDocumentsAndEntriesByKind() throws {
        let index = indexPath()
        defer { remove(index) }
        let result = try run(["show", "swiftui-mv-patterns"], index: index)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "skill  swiftui-mv-patterns")
        #expect(lines[2].hasPrefix("The Model-View (MV) approach to SwiftUI"))
        #expect(
            lines[4...6] == ["Documents: \(Self.skills.path)/swiftui-mv-patterns", "  SKILL.md", "  references/existing-view-models.md"])
        #expect(lines.contains("checklist (1)"))
        #expect(lines.contains("  Refactor Checklist  swiftui-mv-patterns/SKILL#swiftui-mv-patterns/refactor-checklist"))
        let json = try run(["show", "--json", "swiftui-mv-patterns"], index: index)
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        let entries = try #require(document["entries"] as? [[String: Any]])
        #expect(entries.contains { $0["id"] as? String == "swiftui-mv-patterns/SKILL#swiftui-mv-patterns/refactor-checklist" })
    }
}
