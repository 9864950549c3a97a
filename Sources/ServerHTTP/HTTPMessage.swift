import Foundation
import SkillServer

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

/// One HTTP request as ``MCPHTTPEndpoint`` sees it, its body whole: what the HTTP library parsed,
/// copied into plain values so that the endpoint is tested without a socket.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The request target as sent: a path and an optional query.
    public var target: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Who sent it (the peer's address), the key of the per-client session cap.
    public var client: String
    /// The connection it arrived on, while the request is answered.
    public var connection: HTTPConnection?

    /// A request; for tests and the transport.
    public init(
        method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], client: String = "",
        connection: HTTPConnection? = nil
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.client = client
        self.connection = connection
    }

    /// The target without its query.
    public var path: String {
        target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
    }
}

/// The client's end of a connection, as a handler may observe it while answering a request on it.
public final class HTTPConnection: Sendable {
    private let hungUp: @Sendable () -> Bool

    /// A connection whose client has hung up when `hungUp` says so.
    public init(hungUp: @escaping @Sendable () -> Bool) { self.hungUp = hungUp }

    /// Whether the client closed its end: nothing more can reach it.
    public var clientHungUp: Bool { hungUp() }
}

/// One HTTP response as the endpoint builds it; the transport writes it.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// When set, the body is this stream's bytes as they come (``body`` is not sent).
    public var stream: HTTPEventStream?

    /// A response; the transport adds `Content-Length` or chunked framing.
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
}
