import Foundation
import Testing

@testable import SkillIndex
@testable import SkillServer

/// Replies stay within their budgets whatever the skills hold (docs/reliability.md).
@Suite struct ReplyBudgetTests {
    @Test func largeDocumentIsReadInPartsThatJoinToTheFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skill-budget-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("big")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("references"), withIntermediateDirectories: true)
        try Data("---\nname: big\ndescription: A big reference.\n---\n# Big\n".utf8).write(to: folder.appendingPathComponent("SKILL.md"))
        let line = "Ünïcode text about @State, NavigationStack and more, repeated to make a long file.\n"
        let document = (0..<12_000).map { "\($0) " + line }.joined()
        try Data(document.utf8).write(to: folder.appendingPathComponent("references/long.md"))

        let h = Harness(knowledge: indexedKnowledge([root]))
        h.initialize()
        let budget = MCPServer.Configuration().resourceBudget
        var uri = "skill://big/references/long.md"
        var parts: [String] = []
        while parts.count < 20 {
            let text =
                h.request("resources/read", ["uri": .string(uri)])["result"]?["contents"]?.arrayValue?.first?["text"]?.stringValue ?? ""
            guard let note = text.range(of: "\n\n[skill: this file is ") else {
                parts.append(text)
                break
            }
            #expect(note.lowerBound.utf16Offset(in: text) > 0)
            #expect(text[..<note.lowerBound].utf8.count <= budget)
            parts.append(String(text[..<note.lowerBound]))
            let next = text[note.upperBound...].range(of: "read ")!.upperBound
            uri = String(text[next...].prefix { $0 != " " })
        }
        #expect(parts.count == Int((Double(document.utf8.count) / Double(budget)).rounded(.up)))
        #expect(parts.joined() == document)
        #expect(h.request("resources/read", ["uri": "skill://big/references/long.md?offset=99999999"]).errorCode == -32602)
    }

    @Test func promptOfAHugeSkillStaysWithinTheBudget() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skill-budget-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("huge")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let body = String(repeating: "Follow this instruction carefully, line after line.\n", count: 40_000)
        try Data(("---\nname: huge\ndescription: A huge skill.\n---\n" + body).utf8).write(to: folder.appendingPathComponent("SKILL.md"))
        let h = Harness(knowledge: indexedKnowledge([root]))
        h.initialize()
        let text =
            h.request("prompts/get", ["name": "use-huge"])["result"]?["messages"]?.arrayValue?.first?["content"]?["text"]?.stringValue ?? ""
        #expect(body.utf8.count > 2_000_000)
        #expect(text.utf8.count < MCPServer.Configuration().resourceBudget + 500)
        #expect(text.hasSuffix("\n\n[skill: the instructions go on; read skill://huge/SKILL.md for the rest]"))
    }

    @Test func suggestionsCompareABoundedNumberOfIds() {
        let candidates = (0..<5_000).map { "skill/SKILL#heading-\($0)" }
        // The exact id lies beyond the first maxCandidates, so it is never compared.
        #expect(IDSuggestions.rank("skill/SKILL#heading-4999", candidates: candidates, limit: 1) != ["skill/SKILL#heading-4999"])
        #expect(IDSuggestions.rank("skill/SKILL#heading-1999", candidates: candidates, limit: 1) == ["skill/SKILL#heading-1999"])
        // A 100,000-character id is compared by its first characters only.
        let long = "skill/SKILL#heading-12" + String(repeating: "x", count: 100_000)
        #expect(IDSuggestions.key(long).count == IDSuggestions.maxLength)
        #expect(IDSuggestions.rank(long, candidates: candidates, limit: 2).count == 2)
    }
}
