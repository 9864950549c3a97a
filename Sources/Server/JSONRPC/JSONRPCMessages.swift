import Foundation

/// A JSON-RPC request id: a string or an integer (MCP forbids `null`).
public enum RequestID: Hashable, Sendable, Codable, CustomStringConvertible {
    case int(Int)
    case string(String)

    /// The id of `value`, or `nil` when `value` is not a valid request id.
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .int(let i): self = .int(i)
        case .double(let d) where d.rounded() == d && abs(d) < 9e15: self = .int(Int(d))
        default: return nil
        }
    }

    public var json: JSONValue {
        switch self {
        case .int(let i): return .int(i)
        case .string(let s): return .string(s)
        }
    }

    public var description: String {
        switch self {
        case .int(let i): return String(i)
        case .string(let s): return "\"\(s)\""
        }
    }

    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard let id = RequestID(value) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a request id"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

/// A JSON-RPC error code: an open vocabulary of integers.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The line is not JSON.
    public static let parseError = ErrorCode(rawValue: -32700)
    /// Not a request object (a batch array, a missing `method`, a null id, an oversized line).
    public static let invalidRequest = ErrorCode(rawValue: -32600)
    public static let methodNotFound = ErrorCode(rawValue: -32601)
    /// Bad params, an unknown tool or prompt, a bad cursor, an unknown resource (2026-07-28).
    public static let invalidParams = ErrorCode(rawValue: -32602)
    public static let internalError = ErrorCode(rawValue: -32603)
    /// Resource not found, in revisions up to 2025-11-25.
    public static let resourceNotFound = ErrorCode(rawValue: -32002)
    /// 2026-07-28: the request's `_meta` names a protocol version the server does not speak.
    public static let unsupportedProtocolVersion = ErrorCode(rawValue: -32022)

    public init(from decoder: any Decoder) throws { rawValue = try Int(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }
}

/// A failed request: the `error` member of a JSON-RPC response.
public struct ResponseError: Error, Hashable, Sendable, Codable {
    public var code: ErrorCode
    public var message: String
    public var data: JSONValue?

    /// An error with a message a client can show, and optional structured `data`.
    public init(_ code: ErrorCode, _ message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// -32602 with `message`.
    public static func invalidParams(_ message: String) -> ResponseError { ResponseError(.invalidParams, message) }
    /// -32601 naming the method.
    public static func methodNotFound(_ method: String) -> ResponseError {
        ResponseError(.methodNotFound, "Method not found: \(method)")
    }

    var json: JSONValue {
        var o: [String: JSONValue] = ["code": .int(code.rawValue), "message": .string(message)]
        if let data { o["data"] = data }
        return .object(o)
    }
}

/// One message read from the client, already classified.
public enum IncomingMessage: Sendable, Equatable {
    /// A request: it gets exactly one response.
    case request(id: RequestID, method: String, params: JSONValue?)
    /// A notification: it never gets a response.
    case notification(method: String, params: JSONValue?)
    /// A response from the client (this server sends no requests, so it is ignored).
    case response
    /// Something that deserves an error reply (`id` is `nil` when it could not be read).
    case invalid(id: RequestID?, ResponseError)
    /// A JSON array: a batch (JSON-RPC batches are part of 2025-03-26 only).
    case batch([JSONValue])

    /// Classifies one line of input.
    public static func parse(_ line: Data) -> IncomingMessage {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .invalid(id: nil, ResponseError(.parseError, "Parse error: the line is not valid JSON (UTF-8, one message per line)"))
        }
        if case .array(let items) = value { return .batch(items) }
        return classify(value)
    }

    /// Classifies one decoded JSON value (a line, or one element of a batch).
    public static func classify(_ value: JSONValue) -> IncomingMessage {
        guard case .object(let o) = value else {
            return .invalid(
                id: nil, ResponseError(.invalidRequest, "Invalid Request: expected a JSON-RPC 2.0 request object, got \(value.typeName)"))
        }
        let id = o["id"].flatMap(RequestID.init)
        guard o["jsonrpc"] == .string("2.0") else {
            return .invalid(id: id, ResponseError(.invalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\""))
        }
        guard let methodValue = o["method"] else {
            if o["id"] != nil, o["result"] != nil || o["error"] != nil { return .response }
            return .invalid(id: id, ResponseError(.invalidRequest, "Invalid Request: missing \"method\""))
        }
        guard case .string(let method) = methodValue else {
            return .invalid(id: id, ResponseError(.invalidRequest, "Invalid Request: \"method\" must be a string"))
        }
        if let params = o["params"] {
            guard case .object = params else {
                return .invalid(id: id, ResponseError(.invalidRequest, "Invalid Request: \"params\" must be an object"))
            }
        }
        guard let rawID = o["id"] else { return .notification(method: method, params: o["params"]) }
        guard let id else {
            return .invalid(
                id: nil, ResponseError(.invalidRequest, "Invalid Request: \"id\" must be a string or an integer, not \(rawID.typeName)"))
        }
        return .request(id: id, method: method, params: o["params"])
    }
}

/// Builders for the lines the server writes.
public enum OutgoingMessage {
    /// A success response.
    public static func result(id: RequestID, _ result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id.json, "result": result]
    }

    /// An error response; `id` is `null` when the request's id could not be read.
    public static func error(id: RequestID?, _ error: ResponseError) -> JSONValue {
        ["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json]
    }

    /// A notification (no id, never answered).
    public static func notification(_ method: String, _ params: JSONValue?) -> JSONValue {
        var o: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { o["params"] = params }
        return .object(o)
    }
}
