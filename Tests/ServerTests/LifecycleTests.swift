import Foundation
import Testing

@testable import SkillServer

@Suite struct LifecycleTests {
    @Test(arguments: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
    func initializeEchoesASupportedVersion(_ version: String) {
        let h = Harness()
        let result = h.initialize(version)
        #expect(result?["protocolVersion"] == .string(version))
        #expect(result?["capabilities"] == ["tools": [:], "resources": ["listChanged": true], "prompts": ["listChanged": true]])
        #expect(result?["serverInfo"]?["name"] == "skill")
        #expect(h.server.negotiatedVersion?.rawValue == version)
    }

    @Test func initializeAnswersTheLatestForAnUnknownVersion() {
        let h = Harness()
        #expect(h.initialize("1999-01-01")?["protocolVersion"] == "2025-11-25")
        #expect(h.initialize("2026-07-28")?["protocolVersion"] == "2025-11-25")
    }

    @Test func pingAnswersEmpty() {
        let h = Harness()
        h.initialize()
        #expect(h.request("ping")["result"] == [:])
    }

    @Test func discoverServesTheStatelessRevision() {
        let h = Harness()
        let result = h.modern("server/discover")["result"]
        #expect(result?["supportedVersions"] == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
        // listChanged: delivered on subscriptions/listen streams.
        #expect(
            result?["capabilities"]
                == [
                    "tools": [:], "resources": ["listChanged": true], "prompts": ["listChanged": true],
                    "extensions": ["io.modelcontextprotocol/skills": ["directoryRead": true]],
                ])
        #expect(result?["resultType"] == "complete")
        #expect(result?["ttlMs"] == 0)
        #expect(result?["cacheScope"] == "private")
        #expect(result?["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"] == "skill")
        #expect(h.server.negotiatedVersion == nil)
    }

    @Test func modernRequestsNeedTheirMeta() {
        let h = Harness()
        #expect(h.request("server/discover").errorCode == -32602)
        #expect(h.request("server/discover", ["_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"]]).errorCode == -32602)
        let unsupported = h.modern("server/discover", version: "2099-01-01")
        #expect(unsupported.errorCode == -32022)
        #expect(unsupported["error"]?["data"]?["requested"] == "2099-01-01")
        #expect(unsupported["error"]?["data"]?["supported"]?.arrayValue?.first == "2026-07-28")
    }

    @Test func modernResultsCarryResultType() {
        let h = Harness()
        let tools = h.modern("tools/list")["result"]
        #expect(tools?["resultType"] == "complete")
        #expect(tools?["ttlMs"] == 0)
        #expect(tools?["tools"]?.arrayValue?.count == 7)
        let call = h.modern("tools/call", ["name": "list_skills", "arguments": [:]])["result"]
        #expect(call?["resultType"] == "complete")
        #expect(call?["ttlMs"] == nil)
        #expect(call?["structuredContent"]?["skills"]?.arrayValue?.count == 2)
    }

    @Test func methodsOfTheOtherEraAreUnknown() {
        let h = Harness()
        #expect(h.modern("ping").errorCode == -32601)
        #expect(
            h.modern("initialize", ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "c", "version": "1"]])
                .errorCode == -32601)
    }

    @Test func notificationsGetNoReply() {
        let h = Harness()
        #expect(
            h.raw(
                #"{"jsonrpc":"2.0","method":"notifications/initialized"}"# + "\n"
                    + #"{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}"#
            ).isEmpty)
        #expect(h.raw(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#).isEmpty)
    }

    @Test func olderRevisionsSeeOlderToolShapes() {
        let h = Harness()
        h.initialize("2024-11-05")
        let tool = h.request("tools/list")["result"]?["tools"]?.arrayValue?.first
        #expect(tool?["title"] == nil)
        #expect(tool?["outputSchema"] == nil)
        #expect(tool?["annotations"] == nil)
        #expect(h.call("list_skills")["structuredContent"] == nil)
        h.initialize("2025-03-26")
        let t2 = h.request("tools/list")["result"]?["tools"]?.arrayValue?.first
        #expect(t2?["annotations"]?["readOnlyHint"] == true)
        #expect(t2?["outputSchema"] == nil)
        h.initialize("2025-06-18")
        let t3 = h.request("tools/list")["result"]?["tools"]?.arrayValue?.first
        #expect(t3?["title"] == "Search skills")
        #expect(t3?["outputSchema"]?["type"] == "object")
    }
}

@Suite struct ErrorTests {
    @Test func malformedJSONGetsNullIDAndServingGoesOn() {
        let h = Harness()
        let replies = h.raw("{not json\n" + #"{"jsonrpc":"2.0","id":5,"method":"ping"}"# + "\n")
        #expect(
            replies == [
                [
                    "jsonrpc": "2.0", "id": .null,
                    "error": ["code": -32700, "message": "Parse error: the line is not valid JSON (UTF-8, one message per line)"],
                ],
                ["jsonrpc": "2.0", "id": 5, "result": [:]],
            ])
    }

    @Test func invalidUTF8IsAParseError() {
        let h = Harness()
        h.transport.connection.receive(.line(Data([0x7B, 0x22, 0xFF, 0x22, 0x7D])))
        #expect(h.transport.drain().map(\.errorCode) == [-32700])
    }

    @Test func invalidRequests() {
        let h = Harness()
        let replies = h.raw(
            """
            [1,2]
            []
            42
            {"jsonrpc":"2.0","id":1}
            {"jsonrpc":"2.0","id":null,"method":"ping"}
            {"jsonrpc":"2.0","id":2,"method":7}
            {"id":3,"method":"ping"}
            {"jsonrpc":"2.0","id":4,"method":"ping","params":[1]}

            """)
        #expect(replies.map(\.errorCode) == [-32600, -32600, -32600, -32600, -32600, -32600, -32600, -32600])
        #expect(replies.map { $0["id"] } == [.null, .null, .null, 1, .null, 2, 3, 4])
    }

    @Test func oversizedLineIsInvalidRequestWithNullID() {
        let h = Harness()
        h.transport.connection.receive(.oversized(byteCount: 20_000_000))
        let replies = h.transport.drain()
        #expect(replies.map(\.errorCode) == [-32600])
        #expect(replies.first?["id"] == .null)
        #expect(h.request("ping")["result"] == [:])
    }

    @Test func batchesUnder20250326() {
        let h = Harness()
        h.initialize("2025-03-26")
        let replies = h.raw(
            #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"nope"},5]"#
                + "\n")
        #expect(
            replies == [
                [
                    ["jsonrpc": "2.0", "id": 1, "result": [:]],
                    ["jsonrpc": "2.0", "id": 2, "error": ["code": -32601, "message": "Method not found: nope"]],
                    [
                        "jsonrpc": "2.0", "id": .null,
                        "error": ["code": -32600, "message": "Invalid Request: expected a JSON-RPC 2.0 request object, got number"],
                    ],
                ]
            ])
        #expect(h.raw("[]\n").map(\.errorCode) == [-32600])
    }

    @Test func unknownMethod() {
        let h = Harness()
        #expect(h.request("tools/explode")["error"] == ["code": -32601, "message": "Method not found: tools/explode"])
        #expect(h.request("logging/setLevel", ["level": "debug"]).errorCode == -32601)
        #expect(h.request("resources/subscribe", ["uri": "skill://swift-testing/SKILL.md"]).errorCode == -32601)
    }

    @Test func badParams() {
        let h = Harness()
        h.initialize()
        #expect(
            h.request("tools/call", ["arguments": [:]])["error"] == [
                "code": -32602, "message": "Invalid params for tools/call: missing required \"name\"",
            ])
        #expect(h.request("tools/call", ["name": 3]).errorCode == -32602)
        #expect(h.request("resources/read", [:]).errorCode == -32602)
        #expect(h.request("initialize", ["protocolVersion": 1]).errorCode == -32602)
        let unknownTool = h.request("tools/call", ["name": "serach"])
        #expect(unknownTool.errorCode == -32602)
        #expect(unknownTool["error"]?["message"]?.stringValue?.contains("did you mean search?") == true)
        #expect(h.request("resources/list", ["cursor": "bogus"])["error"] == ["code": -32602, "message": "Invalid cursor: bogus"])
        #expect(h.request("prompts/list", ["cursor": "bogus"]).errorCode == -32602)
        #expect(h.request("tools/list", ["cursor": "x"]).errorCode == -32602)
        let prompt = h.request("prompts/get", ["name": "use-swift-testin"])
        #expect(prompt.errorCode == -32602)
        #expect(prompt["error"]?["message"] == "Unknown prompt \"use-swift-testin\"; did you mean use-swift-testing?")
    }

    @Test func unknownResourceCodeDependsOnTheVersion() {
        let h = Harness()
        h.initialize("2025-11-25")
        let legacy = h.request("resources/read", ["uri": "skill://nope/SKILL.md"])
        #expect(
            legacy["error"] == [
                "code": -32002, "message": "Resource not found: skill://nope/SKILL.md", "data": ["uri": "skill://nope/SKILL.md"],
            ])
        #expect(h.modern("resources/read", ["uri": "skill://nope/SKILL.md"]).errorCode == -32602)
    }

    @Test(arguments: [
        "skill://swift-testing/../../etc/passwd", "skill://swift-testing/../secret.txt", "skill://swift-testing/%2E%2E/secret.txt",
        "skill://swift-testing//etc/passwd", "skill://swift-testing/references/../SKILL.md", "skill://swift-testing/missing.md",
        "skill://../secret.txt", "file:///etc/passwd", "skill://swift-testing/SKILL.md?x=1",
    ])
    func readNeverLeavesTheSkill(_ uri: String) {
        let h = Harness()
        h.initialize()
        #expect(h.request("resources/read", ["uri": .string(uri)]).errorCode == -32002)
    }
}
