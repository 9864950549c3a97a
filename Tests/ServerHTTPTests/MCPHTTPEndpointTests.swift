import Foundation
import Testing

@testable import SkillServer
@testable import SkillServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct MCPHTTPEndpointTests {
    static let knowledge = indexedKnowledge()

    func endpoint(
        host: String = "127.0.0.1", token: String? = nil, maxSessions: Int = 1000, perClient: Int = 100, reclaimAfter: Double = 600
    ) -> MCPHTTPEndpoint {
        MCPHTTPEndpoint(
            policy: HTTPAccessPolicy(boundTo: host, token: token), maxSessions: maxSessions, maxSessionsPerClient: perClient,
            reclaimAfter: reclaimAfter
        ) {
            MCPServer(knowledge: Self.knowledge)
        }
    }

    func post(_ body: String, _ headers: [(String, String)] = [], client: String = "127.0.0.1") -> HTTPRequest {
        HTTPRequest(
            method: "POST", target: "/mcp",
            headers: HTTPHeaders(
                [("Host", "127.0.0.1:9"), ("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")] + headers
            ), body: Array(body.utf8), client: client)
    }

    func json(_ response: HTTPResponse) -> JSONValue {
        (try? JSONParser.parse(Data(response.body))) ?? .null
    }

    let initialize =
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
    let ping = #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#

    @Test func sessionLifecycle() throws {
        let e = endpoint()
        let opened = e.handle(post(initialize))
        #expect(opened.status == 200)
        #expect(json(opened)["result"]?["protocolVersion"] == "2025-11-25")
        let session = try #require(opened.headers["Mcp-Session-Id"])
        #expect(e.sessionCount == 1)

        #expect(e.handle(post(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, [("Mcp-Session-Id", session)])).status == 202)
        let pong = e.handle(post(ping, [("Mcp-Session-Id", session), ("MCP-Protocol-Version", "2025-11-25")]))
        #expect(pong.status == 200)
        #expect(json(pong) == ["jsonrpc": "2.0", "id": 2, "result": [:]])

        let missing = e.handle(post(ping))
        #expect(missing.status == 400)
        #expect(json(missing)["error"]?["message"] == "Bad Request: send initialize first, then the Mcp-Session-Id header it returned")

        let delete = HTTPRequest(
            method: "DELETE", target: "/mcp", headers: HTTPHeaders([("Host", "localhost"), ("Mcp-Session-Id", session)]))
        #expect(e.handle(delete).status == 200)
        #expect(e.sessionCount == 0)
        #expect(e.handle(delete).status == 404)
        let gone = e.handle(post(ping, [("Mcp-Session-Id", session)]))
        #expect(gone.status == 404)
        #expect(json(gone)["id"] == 2)
    }

    @Test func sessionsAreSeparate() throws {
        let e = endpoint()
        let a = try #require(e.handle(post(initialize)).headers["Mcp-Session-Id"])
        let old = post(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        )
        let b = try #require(e.handle(old).headers["Mcp-Session-Id"])
        #expect(a != b)
        // Each session keeps its own negotiated revision: 2025-03-26 tools have no title.
        let list = #"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#
        #expect(json(e.handle(post(list, [("Mcp-Session-Id", a)])))["result"]?["tools"]?.arrayValue?.first?["title"] != nil)
        #expect(json(e.handle(post(list, [("Mcp-Session-Id", b)])))["result"]?["tools"]?.arrayValue?.first?["title"] == nil)
    }

    /// The attack of issue 26: one client opening sessions in a loop ended everybody's. Now a
    /// client at its own cap ends only its own oldest, and a full server refuses (503) rather
    /// than end another client's live session.
    @Test func sessionCreationsNeverEndOthersLiveSessions() throws {
        let e = endpoint(maxSessions: 4, perClient: 2)
        let alice = try #require(e.handle(post(initialize, client: "10.0.0.1")).headers["Mcp-Session-Id"])
        var mallory: [String] = []
        for _ in 0..<50 {
            let opened = e.handle(post(initialize, client: "10.0.0.66"))
            #expect(opened.status == 200)
            try mallory.append(#require(opened.headers["Mcp-Session-Id"]))
        }
        #expect(e.sessionCount == 3)
        let pinged = [("MCP-Protocol-Version", "2025-11-25")]
        #expect(e.handle(post(ping, [("Mcp-Session-Id", alice)] + pinged)).status == 200)
        // Mallory's own older sessions were the ones ended.
        #expect(e.handle(post(ping, [("Mcp-Session-Id", mallory[0])] + pinged)).status == 404)
        #expect(e.handle(post(ping, [("Mcp-Session-Id", mallory[49])] + pinged)).status == 200)
        // Full of live sessions: a newcomer is refused, and nobody's session ends.
        _ = try #require(e.handle(post(initialize, client: "10.0.0.2")).headers["Mcp-Session-Id"])
        let refused = e.handle(post(initialize, client: "10.0.0.3"))
        #expect(refused.status == 503)
        #expect(refused.headers["Retry-After"] == "60")
        #expect(
            json(refused)["error"]?["message"] == "Service Unavailable: 4 sessions are open and in use; end one (DELETE) or retry later")
        #expect(e.sessionCount == 4)
        #expect(e.handle(post(ping, [("Mcp-Session-Id", alice)] + pinged)).status == 200)
    }

    @Test func aFullServerReclaimsSessionsLeftUnused() throws {
        let e = endpoint(maxSessions: 1, reclaimAfter: 0)
        let first = try #require(e.handle(post(initialize, client: "10.0.0.1")).headers["Mcp-Session-Id"])
        #expect(e.handle(post(initialize, client: "10.0.0.2")).status == 200)
        #expect(e.sessionCount == 1)
        #expect(e.handle(post(ping, [("Mcp-Session-Id", first)])).status == 404)
    }

    @Test func modernRequestsAreSessionlessAndChecked() {
        let e = endpoint()
        let body =
            #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_skills","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#
        let ok = e.handle(
            post(body, [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "=?base64?bGlzdF9za2lsbHM=?=")]))
        #expect(ok.status == 200)
        #expect(ok.headers["Mcp-Session-Id"] == nil)
        #expect(json(ok)["result"]?["resultType"] == "complete")
        #expect(e.sessionCount == 0)

        let noMethod = e.handle(post(body, [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Name", "list_skills")]))
        #expect(noMethod.status == 400)
        #expect(json(noMethod)["error"]?["code"] == -32020)
        #expect(json(noMethod)["error"]?["message"] == "Header mismatch: Mcp-Method header missing does not match body value 'tools/call'")
        let wrongName = e.handle(
            post(body, [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "search")]))
        #expect(json(wrongName)["error"]?["message"] == "Header mismatch: Mcp-Name header 'search' does not match body value 'list_skills'")
        let wrongVersion = e.handle(
            post(body, [("MCP-Protocol-Version", "2025-11-25"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "list_skills")]))
        #expect(wrongVersion.status == 400)
        #expect(json(wrongVersion)["error"]?["code"] == -32020)
        let unknown = e.handle(post(body, [("MCP-Protocol-Version", "2099-01-01")]))
        #expect(unknown.status == 400)
        #expect(json(unknown)["error"]?["code"] == -32022)

        let nope =
            #"{"jsonrpc":"2.0","id":8,"method":"nope/nope","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#
        let missing = e.handle(post(nope, [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "nope/nope")]))
        #expect(missing.status == 404)
        #expect(json(missing)["error"]?["code"] == -32601)
    }

    @Test func progressIsStreamedBeforeTheReply() throws {
        let e = endpoint()
        let session = try #require(e.handle(post(initialize)).headers["Mcp-Session-Id"])
        let call =
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_skills","arguments":{},"_meta":{"progressToken":"p"}}}"#
        let response = e.handle(post(call, [("Mcp-Session-Id", session)]))
        #expect(response.headers["Content-Type"] == "text/event-stream")
        let events = String(decoding: response.body, as: UTF8.self).components(separatedBy: "\n\n").filter { !$0.isEmpty }
        #expect(events.count == 3)
        #expect(events.allSatisfy { $0.hasPrefix("event: message\ndata: {") })
        #expect(events[0].contains("notifications/progress"))
        #expect(events[2].contains("\"id\":4"))
    }

    func get(_ headers: [(String, String)]) -> HTTPRequest {
        HTTPRequest(method: "GET", target: "/mcp", headers: HTTPHeaders([("Host", "127.0.0.1:9")] + headers))
    }

    func delete(_ session: String) -> HTTPRequest {
        HTTPRequest(method: "DELETE", target: "/mcp", headers: HTTPHeaders([("Host", "localhost"), ("Mcp-Session-Id", session)]))
    }

    @Test func getOpensTheSessionsStreamForListChanges() async throws {
        let e = endpoint()
        let session = try #require(e.handle(post(initialize)).headers["Mcp-Session-Id"])
        let listen = [("Accept", "text/event-stream"), ("Mcp-Session-Id", session)]
        let opened = e.handle(get(listen))
        #expect(opened.status == 200)
        #expect(opened.headers["Content-Type"] == "text/event-stream")
        #expect(opened.headers["X-Accel-Buffering"] == "no")
        let stream = try #require(opened.stream)
        #expect(await stream.next(waitingUpTo: 0) == .idle)

        // One stream per session: a second GET is 409 while the first is open.
        let second = e.handle(get(listen))
        #expect(second.status == 409)
        #expect(
            json(second)["error"]?["message"] == .string("Conflict: session \(session) already has its GET stream open (one per session)"))

        e.skillsChanged()
        guard case .bytes(let bytes) = await stream.next(waitingUpTo: 0) else {
            Issue.record("no list_changed event")
            return
        }
        let events = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n\n").filter { !$0.isEmpty }
        #expect(
            events == [
                #"event: message\#ndata: {"jsonrpc":"2.0","method":"notifications/resources/list_changed"}"#,
                #"event: message\#ndata: {"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}"#,
            ])

        // DELETE ends the session and its stream.
        #expect(e.handle(delete(session)).status == 200)
        #expect(!stream.isOpen)
        #expect(await stream.next(waitingUpTo: 0) == .ended)
        #expect(e.handle(get(listen)).status == 404)
    }

    @Test func anEndedStreamCanBeReopened() async throws {
        let e = endpoint()
        let session = try #require(e.handle(post(initialize)).headers["Mcp-Session-Id"])
        let listen = [("Accept", "text/event-stream"), ("Mcp-Session-Id", session)]
        let first = try #require(e.handle(get(listen)).stream)
        // The client hung up (the HTTP server closes the stream when it notices).
        first.close()
        let second = try #require(e.handle(get(listen)).stream)
        e.skillsChanged()
        #expect(await first.next(waitingUpTo: 0) == .ended)
        #expect(await second.next(waitingUpTo: 0) != .idle)
        // Sessions without a stream miss the change; so does a sessionless 2026-07-28 client.
        let other = try #require(e.handle(post(initialize)).headers["Mcp-Session-Id"])
        e.skillsChanged()
        let otherStream = try #require(e.handle(get([("Accept", "text/event-stream"), ("Mcp-Session-Id", other)])).stream)
        #expect(await otherStream.next(waitingUpTo: 0) == .idle)
    }

    @Test func getRefusals() throws {
        let e = endpoint()
        let session = try #require(e.handle(post(initialize)).headers["Mcp-Session-Id"])
        #expect(e.handle(get([("Mcp-Session-Id", session)])).status == 406)
        #expect(e.handle(get([("Accept", "application/json"), ("Mcp-Session-Id", session)])).status == 406)
        let noSession = e.handle(get([("Accept", "text/event-stream")]))
        #expect(noSession.status == 400)
        #expect(
            json(noSession)["error"]?["message"]
                == "Bad Request: a GET opens a session's stream; send the Mcp-Session-Id header that initialize returned")
        #expect(e.handle(get([("Accept", "text/event-stream"), ("Mcp-Session-Id", "nope")])).status == 404)
        // 2026-07-28 has no GET stream.
        let modern = e.handle(get([("Accept", "text/event-stream"), ("MCP-Protocol-Version", "2026-07-28")]))
        #expect(modern.status == 405)
        #expect(modern.headers["Allow"] == "GET, POST, DELETE")
        #expect(
            e.handle(get([("Accept", "text/event-stream"), ("Mcp-Session-Id", session), ("MCP-Protocol-Version", "1999-01-01")])).status
                == 400)
        #expect(
            e.handle(get([("Accept", "text/event-stream"), ("Mcp-Session-Id", session), ("Origin", "https://evil.example")])).status == 403)
        #expect(e.handle(get([("Accept", "*/*"), ("Mcp-Session-Id", session), ("MCP-Protocol-Version", "2025-11-25")])).status == 200)
    }

    @Test func aSessionCancelsItsRequestInFlight() throws {
        let kb = GatedKnowledgeBase()
        let e = MCPHTTPEndpoint(policy: HTTPAccessPolicy(boundTo: "127.0.0.1", token: nil)) { MCPServer(knowledge: kb) }
        let session = try #require(e.handle(post(initialize)).headers["Mcp-Session-Id"])
        let other = try #require(e.handle(post(initialize)).headers["Mcp-Session-Id"])
        let search = #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":"state"}}}"#
        let cancel = #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}}"#

        func inFlight(_ id: String, _ whileWaiting: () -> Void) -> HTTPResponse {
            let box = ResponseBox()
            let done = DispatchSemaphore(value: 0)
            Thread {
                box.response = e.handle(post(search, [("Mcp-Session-Id", id)]))
                done.signal()
            }.start()
            kb.entered.wait()
            whileWaiting()
            kb.gate.signal()
            done.wait()
            return box.response ?? HTTPResponse(status: 0)
        }

        // Another session's cancellation does not reach it.
        let answered = inFlight(session) {
            #expect(e.handle(post(cancel, [("Mcp-Session-Id", other)])).status == 202)
        }
        #expect(json(answered)["id"] == 5)
        // Its own does: the POST gets an SSE stream with no event, as a cancelled request gets no reply.
        let cancelled = inFlight(session) {
            #expect(e.handle(post(cancel, [("Mcp-Session-Id", session)])).status == 202)
        }
        #expect(cancelled.status == 200)
        #expect(cancelled.headers["Content-Type"] == "text/event-stream")
        #expect(cancelled.body.isEmpty)
        // A cancellation arriving after the reply changes nothing.
        #expect(e.handle(post(cancel, [("Mcp-Session-Id", session)])).status == 202)
        #expect(json(inFlight(session) {})["id"] == 5)
    }

    @Test func aModernRequestIsCancelledByItsClientHangingUp() throws {
        let hungUp = Flag()
        let connection = HTTPConnection { hungUp.isSet }
        let e = endpoint()
        let session = try #require(e.handle(post(initialize)).headers["Mcp-Session-Id"])
        let body =
            #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_skills","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#
        var modern = post(body, [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "list_skills")])
        modern.connection = connection
        var legacy = post(
            #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"list_skills","arguments":{}}}"#, [("Mcp-Session-Id", session)]
        )
        legacy.connection = connection
        #expect(json(e.handle(modern))["id"] == 7)

        hungUp.set()
        #expect(connection.clientHungUp)
        let gone = e.handle(modern)
        #expect(gone.headers["Content-Type"] == "text/event-stream")
        #expect(gone.body.isEmpty)
        // Up to 2025-11-25 a disconnection is not a cancellation: the reply is still made.
        #expect(json(e.handle(legacy))["id"] == 8)
    }

    @Test func transportErrors() {
        let e = endpoint()
        let put = e.handle(HTTPRequest(method: "PUT", target: "/mcp", headers: HTTPHeaders([("Host", "localhost")])))
        #expect(put.status == 405)
        #expect(put.headers["Allow"] == "GET, POST, DELETE")
        #expect(e.handle(HTTPRequest(method: "POST", target: "/other", headers: HTTPHeaders([("Host", "localhost")]))).status == 404)
        #expect(e.handle(post("{not json")).status == 400)
        #expect(json(e.handle(post("{not json")))["error"]?["code"] == -32700)
        #expect(e.handle(post("[]")).status == 400)
        #expect(e.handle(post(ping, [("MCP-Protocol-Version", "1999-01-01")])).status == 400)
        var text = post(ping)
        text.headers = HTTPHeaders([("Host", "localhost"), ("Content-Type", "text/plain")])
        #expect(e.handle(text).status == 415)
        var html = post(ping)
        html.headers = HTTPHeaders([("Host", "localhost"), ("Accept", "text/html")])
        #expect(e.handle(html).status == 406)
    }

    @Test func originAndHostChecks() {
        let e = endpoint()
        #expect(e.handle(post(initialize, [("Origin", "http://localhost:3000")])).status == 200)
        #expect(e.handle(post(initialize, [("Origin", "http://[::1]:3000")])).status == 200)
        let foreign = e.handle(post(initialize, [("Origin", "https://evil.example")]))
        #expect(foreign.status == 403)
        #expect(json(foreign)["error"]?["message"] == "Forbidden: Origin https://evil.example is not allowed")
        #expect(json(foreign)["id"] == .null)
        #expect(e.handle(post(initialize, [("Origin", "null")])).status == 403)
        var rebound = post(initialize)
        rebound.headers = HTTPHeaders([("Host", "evil.example:8080"), ("Content-Type", "application/json")])
        #expect(e.handle(rebound).status == 403)
        // Bound to a private address: that address is an allowed origin, Host is not checked.
        let team = endpoint(host: "10.1.2.3")
        #expect(team.handle(post(initialize, [("Origin", "http://10.1.2.3:8080")])).status == 200)
        #expect(team.handle(post(initialize, [("Origin", "http://10.9.9.9")])).status == 403)
    }

    @Test func bearerToken() {
        let e = endpoint(token: "s3cret")
        let none = e.handle(post(initialize))
        #expect(none.status == 401)
        #expect(none.headers["WWW-Authenticate"] == "Bearer")
        #expect(json(none)["error"]?["message"] == "Unauthorized: send Authorization: Bearer TOKEN")
        let wrong = e.handle(post(initialize, [("Authorization", "Bearer s3cres")]))
        #expect(wrong.status == 401)
        #expect(json(wrong)["error"]?["message"] == "Unauthorized: wrong bearer token")
        #expect(e.handle(post(initialize, [("Authorization", "Bearer s3cret-longer")])).status == 401)
        #expect(e.handle(post(initialize, [("Authorization", "bearer s3cret")])).status == 200)
        // The Origin check comes first: a foreign page learns nothing about the token.
        #expect(e.handle(post(initialize, [("Origin", "https://evil.example"), ("Authorization", "Bearer s3cret")])).status == 403)
    }
}

/// A response handed from a request's thread to the test's.
private final class ResponseBox: @unchecked Sendable {
    var response: HTTPResponse?
}
