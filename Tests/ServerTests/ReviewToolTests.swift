import Foundation
import SkillIndex
import TestSupport
import Testing

@testable import SkillServer

/// The bundled skills, whose anti-patterns have code.
private let bundledRoot = packageRoot.appendingPathComponent("skills")

/// A button that clears its flag after a suspension point (the bundled skills' "Async Work
/// Without Boundaries"), from the labelled set.
private let code = try! String(
    contentsOf: packageRoot.appendingPathComponent("Tests/CheckTests/Fixtures/labelled/swift/mistake-await-between-flags.swift"),
    encoding: .utf8)
private let antiPattern =
    "swiftui-architecture/references/anti-patterns#swiftui-architecture-anti-patterns/anti-pattern-async-work-without-boundaries"

@Suite struct ReviewToolTests {
    @Test func reviewReportsTheAntiPatternWithLinesAndFix() {
        let h = Harness(knowledge: indexedKnowledge([bundledRoot]))
        h.initialize()
        let result = h.call("review", ["code": .string(code), "path": "SyncButton.swift"])
        #expect(result["isError"] == nil)
        let findings = result["structuredContent"]?["findings"]?.arrayValue ?? []
        #expect(findings.count == 1)
        #expect(findings.first?["id"] == .string(antiPattern))
        #expect(findings.first?["path"] == "SyncButton.swift")
        #expect(findings.first?["line"] == 3)
        #expect(findings.first?["endLine"] == 11)
        #expect(findings.first?["score"] == 1)
        #expect(findings.first?["fix"] == .string(antiPattern + "~example-2"))
        #expect(
            result.text.hasPrefix(
                """
                1 finding (18 lines); `get` an id for the anti-pattern and its fix:
                1. SyncButton.swift:3-11 Anti-Pattern: Async Work Without Boundaries (score 1.0)
                   id: \(antiPattern)
                   fix: \(antiPattern)~example-2
                   why: await suspends; everything after it runs at some later time, outside the original update.
                Checklists for this code:
                """))
        let checklists = result["structuredContent"]?["checklists"]?.arrayValue ?? []
        #expect(checklists.first?["matched"]?.arrayValue?.contains("@State") == true)
    }

    @Test func reviewOfCleanCodeSaysSo() {
        let h = Harness(knowledge: indexedKnowledge([bundledRoot]))
        h.initialize()
        let result = h.call("review", ["code": "let x = 1\n", "language": "swift"])
        #expect(result["structuredContent"]?["findings"] == [])
        #expect(result.text == "No anti-pattern of the installed skills matches this code (1 line).")
    }

    @Test func reviewStaysWithinItsBudget() {
        let h = Harness(knowledge: indexedKnowledge([bundledRoot]))
        h.initialize()
        let result = h.call("review", ["code": .string(code), "path": "A.swift", "maxChars": 200])
        #expect(result["structuredContent"]?["findings"]?.arrayValue?.count == 1)
        #expect(result["structuredContent"]?["checklists"] == [])
        #expect(result["structuredContent"]?["truncated"] == true)
        #expect(result.text.hasSuffix("(truncated: raise maxChars for the rest)"))
    }

    @Test(arguments: [
        (["code": "x", "language": "cobol"] as JSONValue, "review: unknown language \"cobol\". Languages: swift, python, typescript."),
        ([:] as JSONValue, "review: missing required argument \"code\" (a string)."),
        (["path": "../../etc/passwd"] as JSONValue, ""),
    ])
    func badReviewArgumentsAreToolErrors(_ arguments: JSONValue, _ message: String) {
        let h = Harness(knowledge: indexedKnowledge([bundledRoot]))
        h.initialize()
        let tool = message.isEmpty ? "check" : "review"
        let result = h.call(tool, arguments)
        #expect(result["isError"] == true)
        if message.isEmpty {
            #expect(result.text.hasPrefix("check: ../../etc/passwd is outside the server's working directory"))
        } else {
            #expect(result.text == message)
        }
    }

    @Test func checkReadsAFileUnderTheWorkingDirectory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skill-review-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(code.utf8).write(to: folder.appendingPathComponent("Sources/Detail.swift"))
        var configuration = MCPServer.Configuration()
        configuration.checkRoot = folder
        let server = MCPServer(knowledge: indexedKnowledge([bundledRoot]), configuration: configuration)
        let tools = SkillTools(knowledge: server.knowledge, checkRoot: folder)
        let output = try tools.check(SkillTools.Arguments(values: ["path": "Sources"], tool: "check"))
        #expect(output.text.contains("1. Sources/Detail.swift:3-11 Anti-Pattern: Async Work Without Boundaries (score 1.0)"))
        let missing = #expect(throws: SkillTools.ToolFailure.self) {
            try tools.check(SkillTools.Arguments(values: ["path": "Nope.swift"], tool: "check"))
        }
        #expect(missing?.message.hasPrefix("check: \(folder.resolvingSymlinksInPath().path)/Nope.swift does not exist") == true)
    }
}
