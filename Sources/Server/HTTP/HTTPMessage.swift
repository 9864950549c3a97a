import Foundation

/// Header fields in arrival order; names compare case-insensitively (RFC 9110).
public struct HTTPHeaders: Sendable, Equatable {
    /// The fields as received or to be sent.
    public private(set) var fields: [(name: String, value: String)] = []

    /// No fields.
    public init() {}

    /// The given fields, in order.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, if any.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// Appends a field.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.value) == b.fields.map(\.value)
    }
}

/// One HTTP/1.x request, its body whole (chunked bodies arrive decoded).
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    /// The request target as sent: a path and an optional query.
    public var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The connection it arrived on, set by ``HTTPServer`` while the request is answered.
    public var connection: HTTPConnection?

    /// A request; for tests and the parser.
    public init(
        method: String, target: String, version: String = "HTTP/1.1", headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        connection: HTTPConnection? = nil
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.connection = connection
    }

    /// The target without its query.
    public var path: String {
        target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
    }

    /// Whether the client keeps the connection open after the reply: HTTP/1.1 unless
    /// `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool {
        let tokens = headers.values("Connection").flatMap {
            $0.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }
}

/// The client's end of a connection, as a handler may observe it while answering a request on it.
public final class HTTPConnection: @unchecked Sendable, Equatable {
    private let fd: Int32

    /// The connection on socket `fd`, which must stay open while this is used.
    public init(fd: Int32) { self.fd = fd }

    /// Whether the client closed its end: nothing more can reach it.
    public var clientHungUp: Bool { HTTPServer.peerHungUp(fd) }

    /// The same connection.
    public static func == (a: HTTPConnection, b: HTTPConnection) -> Bool { a === b }
}

/// One HTTP/1.1 response.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// When set, the body is this stream's bytes as they come (``body`` is not sent), chunked.
    public var stream: HTTPEventStream?

    /// A response; `Content-Length` (or `Transfer-Encoding`) and `Connection` are added when it
    /// is written.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], stream: HTTPEventStream? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream
    }

    /// A response whose body is `json`, as `application/json`.
    public static func json(_ status: Int, _ json: JSONValue, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var h = headers
        h.add("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: h, body: [UInt8](JSONWriter.data(json)))
    }

    /// A plain-text response (errors the transport answers before any JSON-RPC is read).
    public static func text(_ status: Int, _ text: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var h = headers
        h.add("Content-Type", "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: h, body: Array((text + "\n").utf8))
    }

    /// The bytes on the wire: status line, headers, `Content-Length`, `Connection`, body. A
    /// streamed response is only its head: `Transfer-Encoding: chunked` when `chunked`, else its
    /// body lasts until the connection closes (HTTP/1.0).
    public func serialized(keepAlive: Bool, chunked: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for field in headers.fields { head += "\(field.name): \(field.value)\r\n" }
        if stream == nil {
            head += "Content-Length: \(body.count)\r\n"
        } else if chunked {
            head += "Transfer-Encoding: chunked\r\n"
        }
        head += keepAlive ? "" : "Connection: close\r\n"
        head += "\r\n"
        return Array(head.utf8) + (stream == nil ? body : [])
    }

    /// The reason phrase of the statuses this server sends.
    static func reason(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 202: return "Accepted"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 431: return "Request Header Fields Too Large"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
