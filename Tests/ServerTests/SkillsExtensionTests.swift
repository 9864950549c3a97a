import Foundation
import SkillIndex
import SkillParser
import Testing

@testable import SkillServer

/// The MCP Skills extension (`skills/list`, `skills/get`, `resources/directory/read`) and
/// `subscriptions/listen`, over the in-memory connection.
@Suite struct SkillsExtensionTests {
    func roundTrip<T: Codable & Equatable>(_ value: T, _ json: String) throws {
        let encoded = try JSONValue(encoding: value)
        #expect(JSONWriter.string(encoded) == json)
        #expect(try encoded.decode(as: T.self) == value)
        #expect(try JSONDecoder().decode(T.self, from: Data(json.utf8)) == value)
    }

    @Test func messagesRoundTrip() throws {
        try roundTrip(
            ServerCapabilities(tools: ListChangedCapability(), extensions: ServerExtensions(skills: SkillsCapability(directoryRead: true))),
            #"{"extensions":{"io.modelcontextprotocol/skills":{"directoryRead":true}},"tools":{}}"#)
        try roundTrip(ListSkillsRequest(cursor: "b2:x"), #"{"cursor":"b2:x"}"#)
        let entry = SkillEntry(
            uri: "skill://a/SKILL.md", frontmatter: ["name": "a", "description": "d", "metadata": ["n": 1]],
            resources: [SkillResource(uri: "skill://a/SKILL.md", digest: "sha256:00", size: 3)])
        try roundTrip(
            ListSkillsRequest.Response(skills: [entry], nextCursor: "c"),
            #"{"cacheScope":"private","nextCursor":"c","resultType":"complete","skills":[{"frontmatter":{"description":"d","metadata":{"n":1},"name":"a"},"resources":[{"digest":"sha256:00","size":3,"uri":"skill://a/SKILL.md"}],"uri":"skill://a/SKILL.md"}],"ttlMs":0}"#
        )
        try roundTrip(GetSkillRequest(uri: "skill://a/SKILL.md"), #"{"uri":"skill://a/SKILL.md"}"#)
        try roundTrip(
            GetSkillRequest.Response(skill: SkillEntry(uri: "skill://a/SKILL.md", frontmatter: ["name": "a"], resources: [])),
            #"{"cacheScope":"private","resultType":"complete","skill":{"frontmatter":{"name":"a"},"resources":[],"uri":"skill://a/SKILL.md"},"ttlMs":0}"#
        )
        try roundTrip(ReadResourceDirectoryRequest(uri: "skill://a", cursor: "c"), #"{"cursor":"c","uri":"skill://a"}"#)
        try roundTrip(
            ReadResourceDirectoryRequest.Response(
                resources: [Resource(uri: "skill://a/t", name: "t", title: nil, description: nil, mimeType: "inode/directory", size: nil)],
                nextCursor: nil),
            #"{"resources":[{"mimeType":"inode/directory","name":"t","uri":"skill://a/t"}],"resultType":"complete"}"#)
    }

    @Test func subscriptionMessagesRoundTrip() throws {
        try roundTrip(
            SubscriptionsListenRequest(
                notifications: SubscriptionFilter(resourcesListChanged: true, resourceSubscriptions: ["skill://a/SKILL.md"])),
            #"{"notifications":{"resourceSubscriptions":["skill://a/SKILL.md"],"resourcesListChanged":true}}"#)
        try roundTrip(
            SubscriptionsListenRequest.Response(subscriptionId: .string("listen-1")),
            #"{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"},"resultType":"complete"}"#)
        try roundTrip(
            SubscriptionsAcknowledgedNotification(notifications: SubscriptionFilter(promptsListChanged: true), subscriptionId: .int(4)),
            #"{"_meta":{"io.modelcontextprotocol/subscriptionId":4},"notifications":{"promptsListChanged":true}}"#)
        try roundTrip(
            StreamedChangeParams(uri: "skill://a/SKILL.md", subscriptionId: .int(4)),
            #"{"_meta":{"io.modelcontextprotocol/subscriptionId":4},"uri":"skill://a/SKILL.md"}"#)
    }

    @Test func frontmatterKeepsYAMLTypes() {
        let file = Data(
            "---\nname: a\ndescription: \"yes: it is\"\nmetadata:\n  version: 2\n  beta: true\n  tags: [x, y]\nlicense: null\n---\n# A\n"
                .utf8)
        #expect(
            FrontmatterJSON.render(file)
                == #"{"name":"a","description":"yes: it is","metadata":{"version":2,"beta":true,"tags":["x","y"]},"license":null}"#)
        #expect(FrontmatterJSON.render(Data("# no frontmatter\n".utf8)) == nil)
        #expect(FrontmatterJSON.render(Data("---\nname: [unclosed\n---\n".utf8)) == nil)
    }

    @Test func declaredInBothEras() {
        let h = Harness()
        let expected: JSONValue = ["io.modelcontextprotocol/skills": ["directoryRead": true]]
        let declared = h.request(
            "initialize",
            [
                "protocolVersion": "2025-11-25", "capabilities": ["extensions": ["io.modelcontextprotocol/skills": [:]]],
                "clientInfo": ["name": "t", "version": "1"],
            ])
        #expect(declared["result"]?["capabilities"]?["extensions"] == expected)
        // Not declared by the client: not in its session's capabilities.
        #expect(Harness().initialize()?["capabilities"]?["extensions"] == nil)
        #expect(h.modern("server/discover")["result"]?["capabilities"]?["extensions"] == expected)
    }

    @Test func listsEveryFileWithItsDigest() throws {
        let h = Harness()
        let result = h.modern("skills/list")["result"]
        #expect(result?["resultType"] == "complete")
        #expect(result?["ttlMs"] == 0)
        #expect(result?["cacheScope"] == "private")
        let skills = result?["skills"]?.arrayValue ?? []
        #expect(skills.map { $0["uri"] } == ["skill://state-basics/SKILL.md", "skill://swift-testing/SKILL.md"])
        let testing = skills[1]
        #expect(
            testing["frontmatter"]
                == [
                    "name": "swift-testing",
                    "description": "Write tests with Swift Testing (#expect, @Test). Use when adding or reviewing unit tests.",
                ])
        let files = testing["resources"]?.arrayValue ?? []
        #expect(
            files.map { $0["uri"] } == [
                "skill://swift-testing/SKILL.md", "skill://swift-testing/references/async.md", "skill://swift-testing/scripts/run.sh",
            ])
        for (file, path) in zip(files, ["SKILL.md", "references/async.md", "scripts/run.sh"]) {
            let data = try Data(contentsOf: fixtureRoot.appendingPathComponent("swift-testing/" + path))
            #expect(file["digest"] == .string("sha256:" + SHA256.hex(data)))
            #expect(file["size"] == .int(data.count))
        }
        // Listed URIs are readable, scripts included.
        let read = h.modern("resources/read", ["uri": "skill://swift-testing/scripts/run.sh"])
        #expect(read["result"]?["contents"]?.arrayValue?.first?["text"] == "#!/bin/sh\nswift test\n")
        // The same in a 2025-11-25 session (the extension is declared there too).
        let old = Harness()
        old.initialize()
        #expect(old.request("skills/list")["result"]?["skills"]?.arrayValue?.count == 2)
    }

    @Test func pagesAndGets() {
        let h = Harness(pageSize: 1)
        let first = h.modern("skills/list")["result"]
        #expect(first?["skills"]?.arrayValue?.count == 1)
        guard case .string(let cursor)? = first?["nextCursor"] else {
            Issue.record("no nextCursor")
            return
        }
        let second = h.modern("skills/list", ["cursor": .string(cursor)])["result"]
        #expect(second?["skills"]?.arrayValue?.first?["uri"] == "skill://swift-testing/SKILL.md")
        #expect(second?["nextCursor"] == nil)
        #expect(h.modern("skills/list", ["cursor": "bogus"]).errorCode == -32602)

        let got = h.modern("skills/get", ["uri": "skill://swift-testing/SKILL.md"])["result"]
        #expect(got?["skill"] == second?["skills"]?.arrayValue?.first)
        #expect(got?["resultType"] == "complete")
        #expect(got?["ttlMs"] == 0)
        let unknown = h.modern("skills/get", ["uri": "skill://nope/SKILL.md"])
        #expect(unknown.errorCode == -32602)
        #expect(unknown["error"]?["message"] == "No skill is served at skill://nope/SKILL.md")
        #expect(h.modern("skills/get", ["uri": "skill://swift-testing/references/async.md"]).errorCode == -32602)
        #expect(h.modern("skills/get", [:]).errorCode == -32602)
    }

    @Test func readsDirectories() {
        let h = Harness()
        let root = h.modern("resources/directory/read", ["uri": "skill://swift-testing"])["result"]
        #expect(
            root?["resources"]
                == [
                    ["uri": "skill://swift-testing/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown"],
                    ["uri": "skill://swift-testing/references", "name": "references", "mimeType": "inode/directory"],
                    ["uri": "skill://swift-testing/scripts", "name": "scripts", "mimeType": "inode/directory"],
                ])
        #expect(
            h.modern("resources/directory/read", ["uri": "skill://swift-testing/scripts"])["result"]?["resources"]
                == [["uri": "skill://swift-testing/scripts/run.sh", "name": "run.sh", "mimeType": "text/x-shellscript"]])
        let file = h.modern("resources/directory/read", ["uri": "skill://swift-testing/SKILL.md"])
        #expect(file.errorCode == -32602)
        #expect(file["error"]?["message"] == "skill://swift-testing/SKILL.md is not a directory resource")
        #expect(h.modern("resources/directory/read", ["uri": "skill://nowhere"]).errorCode == -32602)
    }

    /// A temporary root of skills: `files` maps paths to contents.
    func root(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skills-ext-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    func skillFile(_ name: String) -> String { "---\nname: \(name)\ndescription: The \(name) skill.\n---\n# \(name)\n" }

    @Test func namesNestingPluginsAndLimits() throws {
        var files = [
            "plain/team/other-folder/SKILL.md": skillFile("renamed"),
            "plain/outer/SKILL.md": skillFile("outer"),
            "plain/outer/inner/SKILL.md": skillFile("inner"),
            "plain/outer/inner/notes.txt": "n",
            "plugin/.claude-plugin/plugin.json": #"{"name": "acme"}"#,
            "plugin/skills/refunds/SKILL.md": skillFile("refunds"),
            "plain/big/SKILL.md": skillFile("big"),
        ]
        for i in 0..<SkillManifest.maxFiles { files["plain/big/data/\(i).txt"] = "x" }
        let base = try root(files)
        defer { try? FileManager.default.removeItem(at: base) }
        let h = Harness(knowledge: indexedKnowledge([base.appendingPathComponent("plain"), base.appendingPathComponent("plugin/skills")]))
        let skills = h.modern("skills/list")["result"]?["skills"]?.arrayValue ?? []
        #expect(
            skills.map { $0["uri"] } == [
                "skill://acme/refunds/SKILL.md", "skill://outer/SKILL.md", "skill://outer/inner/SKILL.md", "skill://team/renamed/SKILL.md",
            ])
        // The enclosing skill lists its nested skill's files too.
        #expect(
            skills[1]["resources"]?.arrayValue?.map { $0["uri"] } == [
                "skill://outer/SKILL.md", "skill://outer/inner/SKILL.md", "skill://outer/inner/notes.txt",
            ])
        #expect(skills[2]["resources"]?.arrayValue?.map { $0["uri"] } == ["skill://outer/inner/SKILL.md", "skill://outer/inner/notes.txt"])
        #expect(
            h.modern("resources/read", ["uri": "skill://team/renamed/SKILL.md"])["result"]?["contents"]?.arrayValue?.first?["text"]
                == .string(skillFile("renamed")))
        #expect(
            h.modern("resources/read", ["uri": "skill://acme/refunds/SKILL.md"])["result"]?["contents"]?.arrayValue?.first?["text"]
                == .string(skillFile("refunds")))
        // resources/list uses the same URIs.
        let listed = h.modern("resources/list")["result"]?["resources"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
        #expect(listed.contains("skill://acme/refunds/SKILL.md"))
        #expect(listed.contains("skill://team/renamed/SKILL.md"))
        #expect(listed.contains("skill://outer/inner/SKILL.md"))
        // 513 files: left out, and skills/get says why.
        let big = h.modern("skills/get", ["uri": "skill://big/SKILL.md"])
        #expect(big.errorCode == -32602)
        #expect(big["error"]?["message"]?.stringValue?.contains("has 513 files") == true)
        #expect(
            h.modern("resources/directory/read", ["uri": "skill://acme"])["result"]?["resources"]
                == [["uri": "skill://acme/refunds", "name": "refunds", "mimeType": "inode/directory"]])
    }

    /// Collects what the transport sent until `done` holds (at most 500 looks, 10 ms apart).
    func collect(_ h: Harness, until done: ([JSONValue]) -> Bool) -> [JSONValue] {
        var seen: [JSONValue] = []
        for _ in 0..<500 {
            seen += h.transport.drain()
            if done(seen) { break }
            usleep(10_000)
        }
        return seen
    }

    @Test func listenStreamsChanges() throws {
        let base = try root(["one/SKILL.md": skillFile("one")])
        defer { try? FileManager.default.removeItem(at: base) }
        let h = Harness(knowledge: indexedKnowledge([base]))
        #expect(h.modern("skills/list")["result"]?["skills"]?.arrayValue?.count == 1)
        let meta: JSONValue = ["io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": [:]]
        h.transport.write([
            "jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen",
            "params": [
                "_meta": meta,
                "notifications": [
                    "resourcesListChanged": true, "toolsListChanged": false, "resourceSubscriptions": ["skill://one/SKILL.md"],
                ],
            ],
        ])
        let ack = collect(h) { !$0.isEmpty }
        #expect(
            ack == [
                [
                    "jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                    "params": [
                        "_meta": ["io.modelcontextprotocol/subscriptionId": "listen-1"],
                        "notifications": ["resourcesListChanged": true, "resourceSubscriptions": ["skill://one/SKILL.md"]],
                    ],
                ]
            ])
        try Data((skillFile("one") + "More.\n").utf8).write(to: base.appendingPathComponent("one/SKILL.md"))
        h.transport.connection.checkFreshness()
        let events = collect(h) { $0.count >= 2 }
        let stamp: JSONValue = ["io.modelcontextprotocol/subscriptionId": "listen-1"]
        #expect(
            Set(events) == [
                ["jsonrpc": "2.0", "method": "notifications/resources/list_changed", "params": ["_meta": stamp]],
                [
                    "jsonrpc": "2.0", "method": "notifications/resources/updated",
                    "params": ["_meta": stamp, "uri": "skill://one/SKILL.md"],
                ],
            ])
        // A second stream, cancelled: no reply. The first ends with its result at close.
        h.transport.write([
            "jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen", "params": ["_meta": meta, "notifications": [:]],
        ])
        #expect(collect(h) { !$0.isEmpty }.first?["params"]?["notifications"] == [:])
        h.transport.write(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": 9]])
        #expect(h.server.streams.count >= 1)
        h.transport.connection.close()
        let end = h.transport.drain()
        #expect(
            end == [
                [
                    "jsonrpc": "2.0", "id": "listen-1",
                    "result": [
                        "resultType": "complete",
                        "_meta": [
                            "io.modelcontextprotocol/subscriptionId": "listen-1",
                            "io.modelcontextprotocol/serverInfo": try JSONValue(encoding: MCPServer.Configuration().serverInfo),
                        ],
                    ],
                ]
            ])
        // Not in a session of an older revision.
        let old = Harness()
        old.initialize()
        old.transport.write(["jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": ["notifications": [:]]])
        #expect(collect(old) { !$0.isEmpty }.first?.errorCode == -32601)
    }
}
