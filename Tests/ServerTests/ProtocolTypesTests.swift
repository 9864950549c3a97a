import Foundation
import Testing

@testable import SkillServer

@Suite struct ProtocolTypesTests {
    func roundTrip<T: Codable & Equatable>(_ value: T, _ json: String) throws {
        let encoded = try JSONValue(encoding: value)
        #expect(JSONWriter.string(encoded) == json)
        #expect(try encoded.decode(as: T.self) == value)
        #expect(try JSONDecoder().decode(T.self, from: Data(json.utf8)) == value)
    }

    @Test func initializeRequest() throws {
        try roundTrip(
            InitializeRequest(
                protocolVersion: "2025-06-18", capabilities: ["roots": [:]], clientInfo: Implementation(name: "c", version: "1")),
            #"{"capabilities":{"roots":{}},"clientInfo":{"name":"c","version":"1"},"protocolVersion":"2025-06-18"}"#)
    }

    @Test func callTool() throws {
        try roundTrip(
            CallToolRequest(name: "search", arguments: ["query": "x", "limit": 2]),
            #"{"arguments":{"limit":2,"query":"x"},"name":"search"}"#)
        try roundTrip(
            CallToolRequest.Response(content: [TextContent("hi")], structuredContent: ["a": 1], isError: nil),
            #"{"content":[{"text":"hi","type":"text"}],"structuredContent":{"a":1}}"#)
    }

    @Test func resourcesAndPrompts() throws {
        try roundTrip(ReadResourceRequest(uri: "skill://a/SKILL.md"), #"{"uri":"skill://a/SKILL.md"}"#)
        try roundTrip(
            ResourceContents(uri: "skill://a/x", mimeType: "text/plain", text: "t", blob: nil),
            #"{"mimeType":"text/plain","text":"t","uri":"skill://a/x"}"#)
        try roundTrip(GetPromptRequest(name: "use-a", arguments: ["task": "t"]), #"{"arguments":{"task":"t"},"name":"use-a"}"#)
        try roundTrip(PromptMessage(role: "user", content: TextContent("x")), #"{"content":{"text":"x","type":"text"},"role":"user"}"#)
        try roundTrip(ListResourcesRequest(cursor: "abc"), #"{"cursor":"abc"}"#)
    }

    @Test func idsErrorsAndValues() throws {
        try roundTrip(RequestID.int(7), "7")
        try roundTrip(RequestID.string("a"), #""a""#)
        try roundTrip(ResponseError(.invalidParams, "bad", data: ["uri": "x"]), #"{"code":-32602,"data":{"uri":"x"},"message":"bad"}"#)
        try roundTrip(JSONValue.array([.null, true, 1, .double(1.5), "s\n\"", ["k": []]]), #"[null,true,1,1.5,"s\n\"",{"k":[]}]"#)
        try roundTrip(CancelledNotification(requestId: .int(3), reason: "user"), #"{"reason":"user","requestId":3}"#)
        try roundTrip(
            ProgressNotification(progressToken: "t", progress: 1, total: 2, message: "m"),
            #"{"message":"m","progress":1,"progressToken":"t","total":2}"#)
    }

    @Test func writerEscapesControlCharacters() {
        #expect(JSONWriter.string(.string("a\u{1}b\tc\u{2028}")) == "\"a\\u0001b\\tc\u{2028}\"")
    }

    @Test func classifiesMessages() {
        #expect(
            IncomingMessage.parse(Data(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8))
                == .request(id: .int(1), method: "ping", params: nil))
        #expect(IncomingMessage.parse(Data(#"{"jsonrpc":"2.0","method":"n"}"#.utf8)) == .notification(method: "n", params: nil))
        #expect(IncomingMessage.parse(Data(#"{"jsonrpc":"2.0","id":1,"result":{}}"#.utf8)) == .response)
        guard case .invalid(nil, let e) = IncomingMessage.parse(Data("{".utf8)) else {
            Issue.record("not invalid")
            return
        }
        #expect(e.code == .parseError)
        guard case .invalid(nil, let e2) = IncomingMessage.parse(Data(#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#.utf8)) else {
            Issue.record("not invalid")
            return
        }
        #expect(e2.code == .invalidRequest)
        guard case .invalid(.int(4), let e3) = IncomingMessage.parse(Data(#"{"jsonrpc":"1.0","id":4,"method":"ping"}"#.utf8)) else {
            Issue.record("not invalid")
            return
        }
        #expect(e3.code == .invalidRequest)
    }

    @Test func resourceURIs() {
        #expect(ResourceURI.make(skill: "a", path: "references/my doc.md") == "skill://a/references/my%20doc.md")
        #expect(ResourceURI.parse("skill://a/references/my%20doc.md")?.skill == "a")
        #expect(ResourceURI.parse("skill://a/references/my%20doc.md")?.path == "references/my doc.md")
        #expect(ResourceURI.parse("skill://x/../../etc/passwd") == nil)
        #expect(ResourceURI.parse("skill://x/a/%2E%2E/b") == nil)
        #expect(ResourceURI.parse("skill://x//etc/passwd") == nil)
        #expect(ResourceURI.parse("file:///etc/passwd") == nil)
        #expect(ResourceURI.parse("skill://x") == nil)
    }
}
