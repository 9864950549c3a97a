import Foundation
import SkillParser
import SkillServer

/// MCP's Streamable HTTP transport at one endpoint path, over the same ``MCPServer`` handlers as
/// stdio. Revisions up to 2025-11-25 get a session per `initialize` (`Mcp-Session-Id`, ended by
/// DELETE), each with its own ``MCPServer``; 2026-07-28 requests carry their revision in `_meta`
/// and are answered by one shared, sessionless server after their `MCP-Protocol-Version`,
/// `Mcp-Method` and `Mcp-Name` headers are checked against the body. A request answers with
/// JSON, or with an SSE stream when the handler sent notifications (progress) before its reply.
/// A session may open one standalone SSE stream with GET, on which ``skillsChanged()`` sends its
/// `list_changed` notifications; 2026-07-28 has no GET stream (405). A session's POSTed
/// `notifications/cancelled` cancels its request in flight; a 2026-07-28 request is cancelled by
/// its client closing the connection.
public final class MCPHTTPEndpoint: Sendable {
    /// The endpoint path (`/mcp`).
    public let path: String
    let policy: HTTPAccessPolicy
    let maxSessions: Int
    let maxSessionsPerClient: Int
    let reclaimAfter: Double
    private let makeServer: @Sendable () -> MCPServer
    private let stateless: MCPServer
    private let sessions = Locked([String: Session]())

    private final class Session: @unchecked Sendable {  // `lastUsed` and `stream` change only under the endpoint's lock
        let server: MCPServer
        /// The client address that opened it.
        let client: String
        let inFlight = InFlightRequests()
        /// Guarded by the endpoint's lock, as ``lastUsed`` is.
        var lastUsed = Date()
        /// The GET stream, if one was opened; it may have ended since.
        var stream: HTTPEventStream?
        init(server: MCPServer, client: String) {
            self.server = server
            self.client = client
        }
    }

    /// JSON-RPC error code of 2026-07-28 for headers that do not match the body.
    static let headerMismatch = ErrorCode(rawValue: -32020)

    /// An endpoint at `path` whose sessions each get a server from `makeServer`. At most
    /// `maxSessions` live at once and `maxSessionsPerClient` per client address: a client at its
    /// own cap ends its least recently used session to open another; when all are taken, only a
    /// session unused for `reclaimAfter` seconds (and without an open GET stream) is ended to
    /// make room, else `initialize` is refused 503, so nobody's creations end others' live sessions.
    public init(
        path: String = "/mcp", policy: HTTPAccessPolicy, maxSessions: Int = 1000, maxSessionsPerClient: Int = 100,
        reclaimAfter: Double = 600, makeServer: @escaping @Sendable () -> MCPServer
    ) {
        self.path = path
        self.policy = policy
        self.maxSessions = maxSessions
        self.maxSessionsPerClient = maxSessionsPerClient
        self.reclaimAfter = reclaimAfter
        self.makeServer = makeServer
        self.stateless = makeServer()
    }

    /// The knowledge base every session shares.
    public var knowledge: any KnowledgeBase { stateless.knowledge }

    /// The number of live sessions.
    public var sessionCount: Int {
        sessions.withLock { $0.count }
    }

    /// Answers one HTTP request. Safe to call from many threads at once.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = policy.refusal(for: request) { return refusal }
        guard request.path == path else { return .text(404, "Not Found: the MCP endpoint is \(path)") }
        switch request.method {
        case "POST": return post(request)
        case "GET": return listen(request)
        case "DELETE": return delete(request)
        default: return Self.notAllowed("POST a JSON-RPC message to \(path)")
        }
    }

    /// Sends `list_changed` notifications on every session's open GET stream (a session without
    /// one misses them: its next list request sees the change). Sessionless 2026-07-28 clients
    /// get none, as that revision delivers them only on `subscriptions/listen`.
    public func skillsChanged() {
        let open = sessions.withLock { $0.values.compactMap { session in session.stream.map { (session.server, $0) } } }
        for (server, stream) in open where stream.isOpen {
            for note in server.listChangedNotifications() { stream.send(Self.event(note)) }
        }
    }

    /// GET: a session's standalone SSE stream (2025-03-26 to 2025-11-25), at most one open at a
    /// time; a second is 409, as the official SDKs answer, until the first ends.
    private func listen(_ request: HTTPRequest) -> HTTPResponse {
        guard let accept = request.headers["Accept"]?.lowercased(),
            ["text/event-stream", "text/*", "*/*"].contains(where: accept.contains)
        else {
            return HTTPAccessPolicy.error(406, "Not Acceptable: a GET opens an SSE stream; accept text/event-stream")
        }
        if let refusal = Self.unsupportedHeader(request) { return refusal }
        if request.headers["MCP-Protocol-Version"].map({ ProtocolVersion(rawValue: $0).isModern }) == true {
            return Self.notAllowed(
                "protocol \(request.headers["MCP-Protocol-Version"] ?? "") has no GET stream (its change notifications come on subscriptions/listen, which this server lacks)"
            )
        }
        guard let id = request.headers["Mcp-Session-Id"] else {
            return HTTPAccessPolicy.error(
                400, "Bad Request: a GET opens a session's stream; send the Mcp-Session-Id header that initialize returned")
        }
        return sessions.withLock { sessions in
            guard let session = sessions[id] else { return Self.unknownSession(id) }
            if let open = session.stream, open.isOpen {
                return HTTPAccessPolicy.error(409, "Conflict: session \(id) already has its GET stream open (one per session)")
            }
            let stream = HTTPEventStream()
            session.stream = stream
            session.lastUsed = Date()
            return HTTPResponse(status: 200, headers: Self.eventStreamHeaders, stream: stream)
        }
    }

    private func delete(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.headers["Mcp-Session-Id"] else {
            return HTTPAccessPolicy.error(400, "Bad Request: DELETE needs an Mcp-Session-Id header")
        }
        let removed = sessions.withLock { $0.removeValue(forKey: id) }
        guard let removed else { return HTTPAccessPolicy.error(404, "Not Found: no session \(id)") }
        removed.stream?.close()
        return HTTPResponse(status: 200)
    }

    private func post(_ request: HTTPRequest) -> HTTPResponse {
        if let type = request.headers["Content-Type"], !type.lowercased().hasPrefix("application/json") {
            return HTTPAccessPolicy.error(415, "Unsupported Media Type: POST application/json, not \(type)")
        }
        if let accept = request.headers["Accept"]?.lowercased(),
            !["application/json", "text/event-stream", "*/*", "application/*"].contains(where: accept.contains)
        {
            return HTTPAccessPolicy.error(406, "Not Acceptable: accept application/json and text/event-stream")
        }
        if let refusal = Self.unsupportedHeader(request) { return refusal }
        let headerVersion = request.headers["MCP-Protocol-Version"]
        let message = IncomingMessage.parse(Data(request.body))
        switch message {
        case .invalid(let id, let error):
            return .json(400, OutgoingMessage.error(id: id, error))
        case .batch:
            return HTTPAccessPolicy.error(400, "Invalid Request: JSON-RPC batches are not accepted over HTTP; POST one message per request")
        case .response:
            return HTTPResponse(status: 202)
        case .notification(let method, let params):
            if let id = request.headers["Mcp-Session-Id"] {
                guard let session = session(id) else { return Self.unknownSession(id) }
                if method == CancelledNotification.method {
                    if let cancelled = session.inFlight.cancel(params) { session.server.log.debug("cancelled \(cancelled)") }
                } else {
                    session.server.notify(method: method, params: params)
                }
            }
            return HTTPResponse(status: 202)
        case .request(let id, let method, let params):
            let bodyVersion = params?["_meta"]?[MetaKey.protocolVersion]
            if bodyVersion != nil || headerVersion.map({ ProtocolVersion(rawValue: $0).isModern }) == true {
                return modern(request, id: id, method: method, params: params, bodyVersion: bodyVersion)
            }
            if method == InitializeRequest.method {
                return initialize(id: id, params: params, client: request.client)
            }
            guard let sessionID = request.headers["Mcp-Session-Id"] else {
                return .json(
                    400,
                    OutgoingMessage.error(
                        id: id,
                        ResponseError(.invalidRequest, "Bad Request: send initialize first, then the Mcp-Session-Id header it returned")))
            }
            guard let session = session(sessionID) else { return Self.unknownSession(sessionID, id: id) }
            return answer(session.server, id: id, method: method, params: params, modern: false, inFlight: session.inFlight)
        }
    }

    /// A 2026-07-28 request: no session; the mirrored headers must match the body.
    private func modern(_ request: HTTPRequest, id: RequestID, method: String, params: JSONValue?, bodyVersion: JSONValue?) -> HTTPResponse
    {
        let headerVersion = request.headers["MCP-Protocol-Version"]
        guard let bodyVersion, case .string(let name) = bodyVersion else {
            return mismatch(
                id,
                "the MCP-Protocol-Version header is \(headerVersion ?? "missing") but the body's _meta has no \(MetaKey.protocolVersion)")
        }
        guard ProtocolVersion.supported.contains(ProtocolVersion(rawValue: name)) else {
            return .json(400, OutgoingMessage.error(id: id, Self.unsupported(bodyVersion)))
        }
        guard headerVersion == name else {
            return mismatch(
                id, "MCP-Protocol-Version header \(headerVersion.map { "'\($0)'" } ?? "missing") does not match body value '\(name)'")
        }
        guard let methodHeader = request.headers["Mcp-Method"], methodHeader == method else {
            return mismatch(
                id,
                "Mcp-Method header \(request.headers["Mcp-Method"].map { "'\($0)'" } ?? "missing") does not match body value '\(method)'")
        }
        let nameField: String? =
            switch method {
            case CallToolRequest.method, GetPromptRequest.method: "name"
            case ReadResourceRequest.method: "uri"
            default: nil
            }
        if let nameField, let bodyName = params?[nameField]?.stringValue {
            let given = request.headers["Mcp-Name"].map(Self.decodeHeaderValue)
            guard given == bodyName else {
                return mismatch(
                    id,
                    "Mcp-Name header \(request.headers["Mcp-Name"].map { "'\($0)'" } ?? "missing") does not match body value '\(bodyName)'")
            }
        }
        return answer(stateless, id: id, method: method, params: params, modern: true, connection: request.connection)
    }

    private func initialize(id: RequestID, params: JSONValue?, client: String) -> HTTPResponse {
        let server = makeServer()
        var response = answer(server, id: id, method: InitializeRequest.method, params: params, modern: false)
        guard response.status == 200, server.negotiatedVersion != nil else { return response }
        let sessionID = UUID().uuidString.lowercased()
        let admitted = sessions.withLock { sessions in
            guard makeRoom(for: client, in: &sessions) else { return false }
            sessions[sessionID] = Session(server: server, client: client)
            return true
        }
        guard admitted else {
            return .json(
                503,
                OutgoingMessage.error(
                    id: id,
                    ResponseError(
                        .invalidRequest,
                        "Service Unavailable: \(maxSessions) sessions are open and in use; end one (DELETE) or retry later")),
                headers: HTTPHeaders([("Retry-After", "60")]))
        }
        response.headers.add("Mcp-Session-Id", sessionID)
        return response
    }

    /// Ends a session so that `client` may open one, if that is allowed; `false` when every
    /// session is someone else's and in use. Called under the lock.
    private func makeRoom(for client: String, in sessions: inout [String: Session]) -> Bool {
        let own = sessions.filter { $0.value.client == client }
        if own.count >= maxSessionsPerClient, let oldest = own.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            sessions.removeValue(forKey: oldest)?.stream?.close()
            return true
        }
        guard sessions.count >= maxSessions else { return true }
        let stale = Date(timeIntervalSinceNow: -reclaimAfter)
        let idle = sessions.filter { $0.value.lastUsed <= stale && $0.value.stream?.isOpen != true }
        guard let oldest = idle.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key else { return false }
        sessions.removeValue(forKey: oldest)?.stream?.close()
        return true
    }

    /// Ends every session's GET stream: the server is stopping and does not wait for them.
    public func closeStreams() {
        let open = sessions.withLock { $0.values.compactMap(\.stream) }
        for stream in open { stream.close() }
    }

    private func session(_ id: String) -> Session? {
        sessions.withLock { sessions in
            guard let session = sessions[id] else { return nil }
            session.lastUsed = Date()
            return session
        }
    }

    /// Runs the request through `server`: JSON, or SSE when notifications preceded the reply.
    /// A request may be cancelled meanwhile, by a `notifications/cancelled` of its session
    /// (`inFlight`) or, under 2026-07-28, by its client closing the `connection` (earlier revisions
    /// say a disconnection is not a cancellation): it then answers an SSE stream with no event,
    /// since a cancelled request gets no reply.
    private func answer(
        _ server: MCPServer, id: RequestID, method: String, params: JSONValue?, modern: Bool, inFlight: InFlightRequests? = nil,
        connection: HTTPConnection? = nil
    ) -> HTTPResponse {
        let notes = NotificationBuffer()
        inFlight?.begin(id)
        let isCancelled: @Sendable () -> Bool = { inFlight?.isCancelled(id) == true || connection?.clientHungUp == true }
        let reply = server.respond(id: id, method: method, params: params, isCancelled: isCancelled, notify: { notes.append($0) })
        let cancelled = inFlight?.complete(id) == true || connection?.clientHungUp == true
        if cancelled {
            return HTTPResponse(status: 200, headers: Self.eventStreamHeaders)
        }
        var status = 200
        if modern, let code = reply["error"]?["code"], case .int(let raw) = code {
            if raw == ErrorCode.methodNotFound.rawValue { status = 404 }
            if raw == ErrorCode.unsupportedProtocolVersion.rawValue { status = 400 }
        }
        let sent = notes.all
        guard !sent.isEmpty, status == 200 else { return .json(status, reply) }
        return HTTPResponse(status: 200, headers: Self.eventStreamHeaders, body: (sent + [reply]).flatMap(Self.event))
    }

    /// One message as an SSE event.
    static func event(_ message: JSONValue) -> [UInt8] {
        Array("event: message\ndata: ".utf8) + [UInt8](JSONWriter.data(message)) + Array("\n\n".utf8)
    }

    /// The head of an SSE response; `X-Accel-Buffering: no` keeps nginx from holding events back.
    static var eventStreamHeaders: HTTPHeaders {
        HTTPHeaders([("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no")])
    }

    /// 400 when the `MCP-Protocol-Version` header names a revision this server does not speak.
    private static func unsupportedHeader(_ request: HTTPRequest) -> HTTPResponse? {
        guard let version = request.headers["MCP-Protocol-Version"],
            !ProtocolVersion.supported.contains(ProtocolVersion(rawValue: version))
        else { return nil }
        return .json(400, OutgoingMessage.error(id: nil, unsupported(.string(version))))
    }

    private static func notAllowed(_ why: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Allow", "GET, POST, DELETE")
        return .text(405, "Method Not Allowed: \(why)", headers: headers)
    }

    private func mismatch(_ id: RequestID, _ message: String) -> HTTPResponse {
        .json(400, OutgoingMessage.error(id: id, ResponseError(Self.headerMismatch, "Header mismatch: \(message)")))
    }

    private static func unsupported(_ requested: JSONValue) -> ResponseError {
        ResponseError(
            .unsupportedProtocolVersion, "Unsupported protocol version",
            data: [
                "supported": .array(ProtocolVersion.supported.map { .string($0.rawValue) }),
                "requested": requested,
            ])
    }

    private static func unknownSession(_ session: String, id: RequestID? = nil) -> HTTPResponse {
        .json(
            404,
            OutgoingMessage.error(
                id: id,
                ResponseError(.invalidRequest, "Not Found: no session \(session) (it ended or the server restarted); initialize again")))
    }

    /// A header value, decoded when it uses the `=?base64?…?=` form of 2026-07-28.
    static func decodeHeaderValue(_ value: String) -> String {
        guard value.hasPrefix("=?base64?"), value.hasSuffix("?="), value.count >= 11,
            let data = Data(base64Encoded: String(value.dropFirst(9).dropLast(2))),
            let text = String(data: data, encoding: .utf8)
        else { return value }
        return text
    }
}

/// Notifications a handler sends while answering one HTTP request.
private final class NotificationBuffer: Sendable {
    private let messages = Locked([JSONValue]())

    func append(_ message: JSONValue) {
        messages.withLock { $0.append(message) }
    }

    var all: [JSONValue] { messages.withLock { $0 } }
}
