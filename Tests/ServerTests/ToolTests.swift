import Foundation
import Testing

@testable import SkillServer

@Suite struct ToolTests {
    @Test func listsSevenReadOnlyTools() {
        let h = Harness()
        h.initialize()
        let tools = h.request("tools/list")["result"]?["tools"]?.arrayValue ?? []
        #expect(tools.map { $0["name"] } == ["search", "get", "list_skills", "get_skill", "checklist", "review", "check"])
        for tool in tools {
            #expect(tool["annotations"]?["readOnlyHint"] == true)
            #expect(tool["inputSchema"]?["type"] == "object")
            #expect(tool["outputSchema"]?["type"] == "object")
            #expect(tool["title"]?.stringValue?.isEmpty == false)
            #expect(tool["inputSchema"]?["properties"]?["maxChars"] != nil)
        }
    }

    @Test func searchFindsRankedHits() {
        let h = Harness()
        h.initialize()
        let result = h.call("search", ["query": "sleep tests"])
        #expect(result["isError"] == nil)
        let hits = result["structuredContent"]?["hits"]?.arrayValue ?? []
        #expect(hits.first?["id"] == "swift-testing/SKILL#swift-testing/common-mistakes/sleeping-in-tests")
        #expect(hits.first?["kind"] == "section")
        #expect(hits.first?["source"]?["path"] == "swift-testing/SKILL.md")
        #expect(hits.first?["snippet"]?.stringValue?.contains("**") == true)
        #expect(result.text.contains("id: swift-testing/SKILL#swift-testing/common-mistakes/sleeping-in-tests"))
    }

    @Test func searchFiltersAndLimits() {
        let h = Harness()
        h.initialize()
        let kinds = h.call("search", ["query": "tests", "kind": "checklist"])["structuredContent"]?["hits"]?.arrayValue ?? []
        #expect(kinds.map { $0["id"] } == ["swift-testing/SKILL#swift-testing/review-checklist"])
        let limited = h.call("search", ["query": "state", "limit": 1])["structuredContent"]?["hits"]?.arrayValue ?? []
        #expect(limited.count == 1)
        let none = h.call("search", ["query": "zzqqxx"])
        #expect(none["structuredContent"]?["hits"] == [])
        #expect(none.text.hasPrefix("No entries match \"zzqqxx\""))
        // A long query is echoed by its first 80 characters.
        let long = (1...40).map { "zzq\($0)x" }.joined(separator: " ")
        #expect(h.call("search", ["query": .string(long)]).text.hasPrefix("No entries match \"" + long.prefix(80) + "…\""))
    }

    @Test func searchSaysWhatItCorrectedAndWhenItMatchesPartly() {
        let h = Harness()
        h.initialize()
        let corrected = h.call("search", ["query": "sleepng tests"])
        #expect(corrected["structuredContent"]?["corrections"] == ["sleepng": "sleeping"])
        #expect(corrected.text.hasPrefix("(searched for sleeping instead of sleepng)\n1. [section] Sleeping in tests"))
        let question = h.call("search", ["query": "sleeping tests await work state view"])
        #expect(question["structuredContent"]?["partial"] == true)
        #expect(
            question.text.hasPrefix("(no entry holds every word of the query; these match the most of it)\n1. [section] Sleeping in tests"))
        let plain = h.call("search", ["query": "sleeping tests"])
        #expect(plain["structuredContent"]?["partial"] == nil)
        #expect(plain["structuredContent"]?["corrections"] == nil)
    }

    @Test func copiesOfASkillAreOneHitWithItsOtherPlace() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("skill-server-copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: fixtureRoot, to: copy)
        let h = Harness(knowledge: indexedKnowledge([fixtureRoot, copy]))
        h.initialize()
        let result = h.call("search", ["query": "sleeping tests", "limit": 3])
        let hits = result["structuredContent"]?["hits"]?.arrayValue ?? []
        #expect(hits.filter { $0["title"] == "Sleeping in tests" }.count == 1)
        let other = copy.appendingPathComponent("swift-testing/SKILL.md").path
        #expect(
            hits.first?["alsoAt"] == [
                [
                    "id": "swift-testing/SKILL#swift-testing/common-mistakes/sleeping-in-tests", "skill": "swift-testing",
                    "absolutePath": .string(other), "source": ["path": "swift-testing/SKILL.md", "line": 23, "endLine": 39],
                ]
            ])
        #expect(result.text.contains("   also at: \(other):23"))
    }

    @Test func searchBudgetTruncates() {
        let h = Harness()
        h.initialize()
        let result = h.call("search", ["query": "test", "limit": 10, "maxChars": 200])
        #expect(result["structuredContent"]?["hits"]?.arrayValue?.count == 1)
        #expect(result["structuredContent"]?["truncated"] == true)
    }

    @Test(arguments: [
        (["limit": 0, "query": "x"] as JSONValue, "search: \"limit\" must be between 1 and 50; got 0."),
        (["query": 3] as JSONValue, "search: \"query\" must be a string, not number."),
        ([:] as JSONValue, "search: missing required argument \"query\" (a string)."),
        (
            ["query": "x", "kind": "recipe"] as JSONValue,
            "search: unknown kind \"recipe\". Kinds: skill, anti-pattern, checklist, decision-tree, pattern, table, example, section."
        ),
        (["query": "x", "maxChars": 5] as JSONValue, "search: \"maxChars\" must be between 200 and 200000; got 5."),
    ])
    func badSearchArgumentsAreToolErrors(_ arguments: JSONValue, _ message: String) {
        let h = Harness()
        h.initialize()
        let result = h.call("search", arguments)
        #expect(result == ["content": [["type": "text", "text": .string(message)]], "isError": true])
    }

    @Test func searchUnknownSkillSuggests() {
        let h = Harness()
        let result = h.call("search", ["query": "x", "skill": "swift-test"])
        #expect(result["isError"] == true)
        #expect(result.text == "search: no skill is named \"swift-test\". Did you mean swift-testing? `list_skills` lists them.")
    }

    @Test func getReturnsTheEntryAndItsFix() {
        let h = Harness()
        h.initialize()
        let id = "swift-testing/SKILL#swift-testing/common-mistakes/sleeping-in-tests~anti-pattern-1"
        let result = h.call("get", ["id": .string(id)])
        let entry = result["structuredContent"]?["entry"]
        #expect(entry?["id"] == .string(id))
        #expect(entry?["kind"] == "anti-pattern")
        #expect(entry?["why"] == "Sleeping makes tests slow and flaky: await the work itself.")
        #expect(entry?["text"] == nil)
        #expect(
            result["structuredContent"]?["fix"]?["id"] == "swift-testing/SKILL#swift-testing/common-mistakes/sleeping-in-tests~example-2")
        #expect(result["structuredContent"]?["fix"]?["verdict"] == "good")
        #expect(result.text.contains("await model.load()"))
        // Each fact once: the fix's code is in the entry's markdown, so the text names the fix
        // and the structured content carries fields, not the markdown or the code again.
        #expect(result.text.components(separatedBy: "await model.load()").count == 2)
        #expect(
            result.text.hasSuffix(
                "\n\nFix: swift-testing/SKILL#swift-testing/common-mistakes/sleeping-in-tests~example-2 (lines 34-39, above)"))
        #expect(entry?["markdown"] == nil)
        #expect(!JSONWriter.string(result["structuredContent"] ?? .null).contains("model.load"))
    }

    @Test func getUnknownIDSuggestsNearIDs() {
        let h = Harness()
        let result = h.call("get", ["id": "swift-testing/SKILL#swift-testing/review-checklst"])
        #expect(result["isError"] == true)
        #expect(
            result.text.hasPrefix(
                "get: no entry has the id \"swift-testing/SKILL#swift-testing/review-checklst\". Nearest ids: swift-testing/SKILL#swift-testing/review-checklist,"
            ))
    }

    @Test func getTruncatesToBudget() {
        let h = Harness()
        let result = h.call(
            "get", ["id": "swift-testing/SKILL#swift-testing/common-mistakes/sleeping-in-tests~anti-pattern-1", "maxChars": 200])
        #expect(result["structuredContent"]?["truncated"] == true)
        #expect(result.text.contains("#expect(model.loade…\n\nFix: "))
        #expect(result.text.hasSuffix("\n(truncated: raise maxChars for the rest)"))
    }

    @Test func listSkillsPages() {
        let h = Harness()
        let first = h.call("list_skills", ["maxChars": 200])
        let skills = first["structuredContent"]?["skills"]?.arrayValue ?? []
        #expect(skills.map { $0["name"] } == ["state-basics"])
        #expect(skills.first?["uri"] == "skill://state-basics/SKILL.md")
        guard let cursor = first["structuredContent"]?["nextCursor"] else {
            Issue.record("no cursor")
            return
        }
        let second = h.call("list_skills", ["cursor": cursor, "maxChars": 200])
        #expect(second["structuredContent"]?["skills"]?.arrayValue?.map { $0["name"] } == ["swift-testing"])
        #expect(second["structuredContent"]?["nextCursor"] == nil)
        let bad = h.call("list_skills", ["cursor": "nope"])
        #expect(bad["isError"] == true)
    }

    @Test func getSkillGivesTheBodyWithoutFrontmatter() {
        let h = Harness()
        let result = h.call("get_skill", ["name": "swift-testing"])
        let body = result["structuredContent"]?["body"]?.stringValue ?? ""
        #expect(body.hasPrefix("# Swift Testing\n"))
        #expect(!body.contains("description:"))
        #expect(result["structuredContent"]?["documents"] == ["skill://swift-testing/references/async.md"])
        #expect(h.call("get_skill", ["name": "swift"])["isError"] == true)
    }

    @Test func checklistGivesItems() {
        let h = Harness()
        let result = h.call("checklist", ["skill": "swift-testing"])
        let lists = result["structuredContent"]?["checklists"]?.arrayValue ?? []
        #expect(lists.map { $0["id"] } == ["swift-testing/SKILL#swift-testing/review-checklist"])
        #expect(
            lists.first?["items"]?.arrayValue?.map { $0["text"] } == [
                "Every test has a descriptive name", "No sleep in tests", "Expectations use #expect",
            ])
        #expect(result.text.contains("- [x] Expectations use #expect"))
        let topic = h.call("checklist", ["topic": "private"])["structuredContent"]?["checklists"]?.arrayValue ?? []
        #expect(topic.map { $0["id"] } == ["state-basics/SKILL#state-basics/before-merging"])
        let all = h.call("checklist")["structuredContent"]?["checklists"]?.arrayValue ?? []
        #expect(all.count == 2)
    }
}

@Suite struct ResourceAndPromptTests {
    @Test func listsDocumentsWithPagination() {
        let h = Harness(pageSize: 2)
        h.initialize()
        let first = h.request("resources/list")["result"]
        #expect(first?["resources"]?.arrayValue?.map { $0["uri"] } == ["skill://state-basics/SKILL.md", "skill://swift-testing/SKILL.md"])
        #expect(first?["resources"]?.arrayValue?.first?["mimeType"] == "text/markdown")
        guard let cursor = first?["nextCursor"] else {
            Issue.record("no cursor")
            return
        }
        let second = h.request("resources/list", ["cursor": cursor])["result"]
        #expect(second?["resources"]?.arrayValue?.map { $0["uri"] } == ["skill://swift-testing/references/async.md"])
        #expect(second?["nextCursor"] == nil)
    }

    @Test func readsDocumentsAndFiles() {
        let h = Harness()
        h.initialize()
        let skill = h.request("resources/read", ["uri": "skill://state-basics/SKILL.md"])["result"]?["contents"]?.arrayValue?.first
        #expect(skill?["mimeType"] == "text/markdown")
        #expect(skill?["text"]?.stringValue?.hasPrefix("---\nname: state-basics") == true)
        let doc = h.request("resources/read", ["uri": "skill://swift-testing/references/async.md"])["result"]?["contents"]?.arrayValue?
            .first
        #expect(doc?["text"]?.stringValue?.hasPrefix("# Async tests") == true)
        let script = h.request("resources/read", ["uri": "skill://swift-testing/scripts/run.sh"])["result"]?["contents"]?.arrayValue?.first
        #expect(script?["text"] == "#!/bin/sh\nswift test\n")
        #expect(script?["mimeType"] == "text/plain")
    }

    @Test func templates() {
        let h = Harness()
        let templates = h.request("resources/templates/list")["result"]?["resourceTemplates"]?.arrayValue ?? []
        #expect(templates.map { $0["uriTemplate"] } == ["skill://{name}/SKILL.md", "skill://{name}/{+path}"])
    }

    @Test func promptsOnePerSkill() {
        let h = Harness(pageSize: 1)
        let first = h.request("prompts/list")["result"]
        #expect(first?["prompts"]?.arrayValue?.map { $0["name"] } == ["use-state-basics"])
        let second = h.request("prompts/list", ["cursor": first?["nextCursor"] ?? .null])["result"]
        #expect(second?["prompts"]?.arrayValue?.map { $0["name"] } == ["use-swift-testing"])
        let prompt = h.request("prompts/get", ["name": "use-state-basics", "arguments": ["task": "fix the view"]])["result"]
        let text = prompt?["messages"]?.arrayValue?.first?["content"]?["text"]?.stringValue ?? ""
        #expect(prompt?["messages"]?.arrayValue?.first?["role"] == "user")
        #expect(text.hasPrefix("Use the skill \"state-basics\": follow its instructions below.\n\nTask: fix the view\n\n# State basics"))
    }
}

@Suite struct ConnectionTests {
    @Test func cancelledRequestGetsNoReply() {
        let kb = GatedKnowledgeBase()
        let h = Harness(knowledge: kb)
        h.transport.write([
            "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "search", "arguments": ["query": "state"]],
        ])
        h.transport.write(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": 1, "reason": "user"]])
        kb.gate.signal()
        h.transport.write(["jsonrpc": "2.0", "id": 2, "method": "ping"])
        #expect(h.transport.drain() == [["jsonrpc": "2.0", "id": 2, "result": [:]]])
    }

    @Test func progressComesBeforeTheReply() {
        let h = Harness()
        h.initialize("2025-06-18")
        h.transport.write([
            "jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": ["name": "list_skills", "_meta": ["progressToken": "p1"]],
        ])
        let out = h.transport.drain()
        #expect(out.count == 3)
        #expect(
            out.first == [
                "jsonrpc": "2.0", "method": "notifications/progress",
                "params": ["progressToken": "p1", "progress": 0, "total": 1, "message": "list_skills started"],
            ])
        #expect(out.dropFirst().first?["params"]?["progress"] == 1)
        #expect(out.last?["id"] == 9)
    }

    @Test func changedSkillsNotifyASession() {
        let kb = GatedKnowledgeBase()
        let h = Harness(knowledge: kb)
        h.transport.connection.checkFreshness()
        kb.willChange = true
        h.transport.connection.checkFreshness()
        #expect(h.transport.drain().isEmpty)
        h.initialize()
        kb.willChange = true
        h.transport.connection.checkFreshness()
        #expect(h.transport.drain().map { $0["method"] } == ["notifications/resources/list_changed", "notifications/prompts/list_changed"])
    }

    @Test func indexKnowledgeBaseNoticesChanges() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skill-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "---\nname: one\ndescription: First.\n---\n# One\n".write(
            to: folder.appendingPathComponent("SKILL.md"), atomically: true, encoding: .utf8)
        let kb = indexedKnowledge([root])
        #expect(kb.skills().map(\.name) == ["one"])
        #expect(kb.refresh() == false)
        let two = root.appendingPathComponent("two")
        try FileManager.default.createDirectory(at: two, withIntermediateDirectories: true)
        try "---\nname: two\ndescription: Second.\n---\n# Two\n".write(
            to: two.appendingPathComponent("SKILL.md"), atomically: true, encoding: .utf8)
        #expect(kb.refresh() == true)
        #expect(kb.skills().map(\.name) == ["one", "two"])
    }

    @Test func tenThousandRequestsKeepNoState() {
        let h = Harness()
        h.initialize()
        for i in 0..<10_000 { h.transport.write(["jsonrpc": "2.0", "id": .int(i), "method": "ping"]) }
        let out = h.transport.drain()
        #expect(out.count == 10_000)
        #expect(out.last?["id"] == 9999)
    }
}
