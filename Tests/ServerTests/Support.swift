import Foundation
import SkillIndex
import SkillParser
import Testing

@testable import SkillServer

/// The fixture skills beside the tests.
let fixtureRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/skills")

/// A knowledge base over `roots`: a real SQLite index in a temporary folder (built in the
/// background as `skill serve` does; every question waits for it).
func indexedKnowledge(_ roots: [URL] = [fixtureRoot]) -> IndexKnowledgeBase {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skill-server-index-\(UUID().uuidString)")
    return IndexKnowledgeBase(index: SkillIndex(roots: roots, indexURL: folder.appendingPathComponent("index.sqlite")))
}

/// A server over the fixture skills, driven through the in-memory transport.
final class Harness {
    let knowledge: any KnowledgeBase
    let server: MCPServer
    let transport: MemoryTransport
    private var nextID = 1

    init(knowledge: (any KnowledgeBase)? = nil, pageSize: Int = 50) {
        let kb = knowledge ?? indexedKnowledge()
        var configuration = MCPServer.Configuration()
        configuration.pageSize = pageSize
        self.knowledge = kb
        server = MCPServer(knowledge: kb, configuration: configuration)
        transport = MemoryTransport(server: server)
    }

    /// Sends `initialize` for `version` and `notifications/initialized`; returns the result.
    @discardableResult
    func initialize(_ version: String = "2025-11-25") -> JSONValue? {
        let reply = request(
            "initialize", ["protocolVersion": .string(version), "capabilities": [:], "clientInfo": ["name": "test", "version": "1"]])
        transport.write(["jsonrpc": "2.0", "method": "notifications/initialized"])
        #expect(transport.drain().isEmpty)
        return reply["result"]
    }

    /// Sends one request and returns its single reply.
    func request(_ method: String, _ params: JSONValue? = nil) -> JSONValue {
        let id = nextID
        nextID += 1
        var message: [String: JSONValue] = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
        if let params { message["params"] = params }
        transport.write(.object(message))
        let replies = transport.drain()
        #expect(replies.count == 1, "\(method): \(replies)")
        #expect(replies.first?["id"] == .int(id))
        return replies.first ?? .null
    }

    /// A modern (2026-07-28) request: the version and capabilities in `_meta`.
    func modern(_ method: String, _ params: [String: JSONValue] = [:], version: String = "2026-07-28") -> JSONValue {
        var p = params
        p["_meta"] = ["io.modelcontextprotocol/protocolVersion": .string(version), "io.modelcontextprotocol/clientCapabilities": [:]]
        return request(method, .object(p))
    }

    /// Calls a tool and returns its result.
    func call(_ tool: String, _ arguments: JSONValue = [:]) -> JSONValue {
        request("tools/call", ["name": .string(tool), "arguments": arguments])["result"] ?? .null
    }

    /// Raw bytes in; every reply out.
    func raw(_ text: String) -> [JSONValue] {
        transport.write(text)
        return transport.drain()
    }
}

extension JSONValue {
    /// The text of the first content block of a tool result.
    var text: String { self["content"]?.arrayValue?.first?["text"]?.stringValue ?? "" }
    var errorCode: Int? { self["error"]?["code"]?.intValue }
}

/// A knowledge base whose `search` waits until the test opens the gate (and signals `entered`
/// when one starts waiting).
final class GatedKnowledgeBase: KnowledgeBase, @unchecked Sendable {
    let base = indexedKnowledge()
    let gate = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)
    let changed = NSLock()
    var willChange = false

    func search(_ query: KnowledgeQuery) throws -> SearchResults {
        entered.signal()
        gate.wait()
        return try base.search(query)
    }
    func entry(id: String) -> Entry? { base.entry(id: id) }
    func nearIDs(to id: String, limit: Int) -> [String] { base.nearIDs(to: id, limit: limit) }
    func skills() -> [SkillInfo] { base.skills() }
    func skill(named name: String) -> SkillInfo? { base.skill(named: name) }
    func file(skill: String, path: String) -> Data? { base.file(skill: skill, path: path) }
    func refresh() -> Bool {
        changed.lock()
        defer { changed.unlock() }
        let r = willChange
        willChange = false
        return r
    }
}
