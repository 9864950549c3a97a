import Foundation

/// MCP's Streamable HTTP transport at one endpoint path, over the same ``MCPServer`` handlers as
/// stdio. Revisions up to 2025-11-25 get a session per `initialize` (`Mcp-Session-Id`, ended by
/// DELETE), each with its own ``MCPServer``; 2026-07-28 requests carry their revision in `_meta`
/// and are answered by one shared, sessionless server after their `MCP-Protocol-Version`,
/// `Mcp-Method` and `Mcp-Name` headers are checked against the body. A request answers with
/// JSON, or with an SSE stream when the handler sent notifications (progress) before its reply.
/// There is no standalone GET stream: GET answers 405, as the specification allows.
public final class MCPHTTPEndpoint: @unchecked Sendable {
    /// The endpoint path (`/mcp`).
    public let path: String
    let policy: HTTPAccessPolicy
    let maxSessions: Int
    private let makeServer: @Sendable () -> MCPServer
    private let stateless: MCPServer
    private let lock = NSLock()
    private var sessions: [String: Session] = [:]

    private final class Session: @unchecked Sendable {
        let server: MCPServer
        var lastUsed = Date()
        init(server: MCPServer) { self.server = server }
    }

    /// JSON-RPC error code of 2026-07-28 for headers that do not match the body.
    static let headerMismatch = ErrorCode(rawValue: -32020)

    /// An endpoint at `path` whose sessions each get a server from `makeServer`; at most
    /// `maxSessions` live at once (the least recently used is ended to make room).
    public init(path: String = "/mcp", policy: HTTPAccessPolicy, maxSessions: Int = 1000, makeServer: @escaping @Sendable () -> MCPServer) {
        self.path = path
        self.policy = policy
        self.maxSessions = maxSessions
        self.makeServer = makeServer
        self.stateless = makeServer()
    }

    /// The knowledge base every session shares.
    public var knowledge: any KnowledgeBase { stateless.knowledge }

    /// The number of live sessions.
    public var sessionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return sessions.count
    }

    /// Answers one HTTP request. Safe to call from many threads at once.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = policy.refusal(for: request) { return refusal }
        guard request.path == path else { return .text(404, "Not Found: the MCP endpoint is \(path)") }
        switch request.method {
        case "POST": return post(request)
        case "DELETE": return delete(request)
        default:
            var headers = HTTPHeaders()
            headers.add("Allow", "POST, DELETE")
            return .text(405, "Method Not Allowed: POST a JSON-RPC message to \(path) (this server has no GET stream)", headers: headers)
        }
    }

    private func delete(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.headers["Mcp-Session-Id"] else {
            return HTTPAccessPolicy.error(400, "Bad Request: DELETE needs an Mcp-Session-Id header")
        }
        lock.lock()
        let removed = sessions.removeValue(forKey: id)
        lock.unlock()
        guard removed != nil else { return HTTPAccessPolicy.error(404, "Not Found: no session \(id)") }
        return HTTPResponse(status: 200)
    }

    private func post(_ request: HTTPRequest) -> HTTPResponse {
        if let type = request.headers["Content-Type"], !type.lowercased().hasPrefix("application/json") {
            return HTTPAccessPolicy.error(415, "Unsupported Media Type: POST application/json, not \(type)")
        }
        if let accept = request.headers["Accept"]?.lowercased(),
           !["application/json", "text/event-stream", "*/*", "application/*"].contains(where: accept.contains) {
            return HTTPAccessPolicy.error(406, "Not Acceptable: accept application/json and text/event-stream")
        }
        let headerVersion = request.headers["MCP-Protocol-Version"]
        if let headerVersion, !ProtocolVersion.supported.contains(ProtocolVersion(rawValue: headerVersion)) {
            return .json(400, OutgoingMessage.error(id: nil, Self.unsupported(.string(headerVersion))))
        }
        let message = IncomingMessage.parse(Data(request.body))
        switch message {
        case .invalid(let id, let error):
            return .json(400, OutgoingMessage.error(id: id, error))
        case .batch:
            return HTTPAccessPolicy.error(400, "Invalid Request: JSON-RPC batches are not accepted over HTTP; POST one message per request")
        case .response:
            return HTTPResponse(status: 202)
        case .notification(let method, let params):
            if let session = request.headers["Mcp-Session-Id"] {
                guard let server = server(forSession: session) else { return Self.unknownSession(session) }
                server.notify(method: method, params: params)
            }
            return HTTPResponse(status: 202)
        case .request(let id, let method, let params):
            let bodyVersion = params?["_meta"]?[MetaKey.protocolVersion]
            if bodyVersion != nil || headerVersion.map({ ProtocolVersion(rawValue: $0).isModern }) == true {
                return modern(request, id: id, method: method, params: params, bodyVersion: bodyVersion)
            }
            if method == InitializeRequest.method {
                return initialize(id: id, params: params)
            }
            guard let session = request.headers["Mcp-Session-Id"] else {
                return .json(400, OutgoingMessage.error(id: id, ResponseError(.invalidRequest, "Bad Request: send initialize first, then the Mcp-Session-Id header it returned")))
            }
            guard let server = server(forSession: session) else { return Self.unknownSession(session, id: id) }
            return answer(server, id: id, method: method, params: params, modern: false)
        }
    }

    /// A 2026-07-28 request: no session; the mirrored headers must match the body.
    private func modern(_ request: HTTPRequest, id: RequestID, method: String, params: JSONValue?, bodyVersion: JSONValue?) -> HTTPResponse {
        let headerVersion = request.headers["MCP-Protocol-Version"]
        guard let bodyVersion, case .string(let name) = bodyVersion else {
            return mismatch(id, "the MCP-Protocol-Version header is \(headerVersion ?? "missing") but the body's _meta has no \(MetaKey.protocolVersion)")
        }
        guard ProtocolVersion.supported.contains(ProtocolVersion(rawValue: name)) else {
            return .json(400, OutgoingMessage.error(id: id, Self.unsupported(bodyVersion)))
        }
        guard headerVersion == name else {
            return mismatch(id, "MCP-Protocol-Version header \(headerVersion.map { "'\($0)'" } ?? "missing") does not match body value '\(name)'")
        }
        guard let methodHeader = request.headers["Mcp-Method"], methodHeader == method else {
            return mismatch(id, "Mcp-Method header \(request.headers["Mcp-Method"].map { "'\($0)'" } ?? "missing") does not match body value '\(method)'")
        }
        let nameField: String? = switch method {
        case CallToolRequest.method, GetPromptRequest.method: "name"
        case ReadResourceRequest.method: "uri"
        default: nil
        }
        if let nameField, let bodyName = params?[nameField]?.stringValue {
            let given = request.headers["Mcp-Name"].map(Self.decodeHeaderValue)
            guard given == bodyName else {
                return mismatch(id, "Mcp-Name header \(request.headers["Mcp-Name"].map { "'\($0)'" } ?? "missing") does not match body value '\(bodyName)'")
            }
        }
        return answer(stateless, id: id, method: method, params: params, modern: true)
    }

    private func initialize(id: RequestID, params: JSONValue?) -> HTTPResponse {
        let server = makeServer()
        var response = answer(server, id: id, method: InitializeRequest.method, params: params, modern: false)
        guard response.status == 200, server.negotiatedVersion != nil else { return response }
        let sessionID = UUID().uuidString.lowercased()
        lock.lock()
        if sessions.count >= maxSessions, let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            sessions[oldest] = nil
        }
        sessions[sessionID] = Session(server: server)
        lock.unlock()
        response.headers.add("Mcp-Session-Id", sessionID)
        return response
    }

    private func server(forSession id: String) -> MCPServer? {
        lock.lock()
        defer { lock.unlock() }
        guard let session = sessions[id] else { return nil }
        session.lastUsed = Date()
        return session.server
    }

    /// Runs the request through `server`: JSON, or SSE when notifications preceded the reply.
    private func answer(_ server: MCPServer, id: RequestID, method: String, params: JSONValue?, modern: Bool) -> HTTPResponse {
        let notes = NotificationBuffer()
        let reply = server.respond(id: id, method: method, params: params, notify: { notes.append($0) })
        var status = 200
        if modern, let code = reply["error"]?["code"], case .int(let raw) = code {
            if raw == ErrorCode.methodNotFound.rawValue { status = 404 }
            if raw == ErrorCode.unsupportedProtocolVersion.rawValue { status = 400 }
        }
        let sent = notes.all
        guard !sent.isEmpty, status == 200 else { return .json(status, reply) }
        var body: [UInt8] = []
        for message in sent + [reply] {
            body += Array("event: message\ndata: ".utf8) + [UInt8](JSONWriter.data(message)) + Array("\n\n".utf8)
        }
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/event-stream")
        headers.add("Cache-Control", "no-cache")
        headers.add("X-Accel-Buffering", "no")
        return HTTPResponse(status: 200, headers: headers, body: body)
    }

    private func mismatch(_ id: RequestID, _ message: String) -> HTTPResponse {
        .json(400, OutgoingMessage.error(id: id, ResponseError(Self.headerMismatch, "Header mismatch: \(message)")))
    }

    private static func unsupported(_ requested: JSONValue) -> ResponseError {
        ResponseError(.unsupportedProtocolVersion, "Unsupported protocol version", data: [
            "supported": .array(ProtocolVersion.supported.map { .string($0.rawValue) }),
            "requested": requested,
        ])
    }

    private static func unknownSession(_ session: String, id: RequestID? = nil) -> HTTPResponse {
        .json(404, OutgoingMessage.error(id: id, ResponseError(.invalidRequest, "Not Found: no session \(session) (it ended or the server restarted); initialize again")))
    }

    /// A header value, decoded when it uses the `=?base64?…?=` form of 2026-07-28.
    static func decodeHeaderValue(_ value: String) -> String {
        guard value.hasPrefix("=?base64?"), value.hasSuffix("?="), value.count >= 11,
              let data = Data(base64Encoded: String(value.dropFirst(9).dropLast(2))),
              let text = String(data: data, encoding: .utf8) else { return value }
        return text
    }
}

/// Notifications a handler sends while answering one HTTP request.
private final class NotificationBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [JSONValue] = []

    func append(_ message: JSONValue) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    var all: [JSONValue] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}
