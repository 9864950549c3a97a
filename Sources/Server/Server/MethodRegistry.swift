import Foundation

/// What a handler knows about the request it answers.
public struct RequestContext: Sendable {
    /// The request's id.
    public var id: RequestID
    /// The revision the request is served under (negotiated, or from its `_meta`).
    public var version: ProtocolVersion
    /// The `_meta.progressToken` of the request, when it asked for progress.
    public var progressToken: JSONValue?
    /// `true` once the client cancelled the request: stop and let the reply be dropped.
    public var isCancelled: @Sendable () -> Bool
    /// Sends a notification to the client ahead of the reply.
    public var notify: @Sendable (JSONValue) -> Void
    /// Whether the transport delivers `notify`'s messages while the request is still open (stdio
    /// does; a transport that sends them only with the reply does not): what a
    /// `subscriptions/listen` stream needs.
    public var canStream = false

    /// Sends `notifications/progress` when the request carried a progress token.
    public func progress(_ done: Double, of total: Double, _ message: String) {
        guard let progressToken else { return }
        var p = ProgressNotification(progressToken: progressToken, progress: done, total: total, message: message)
        if !version.hasAnnotations { p.message = nil }
        if let params = try? JSONValue(encoding: p) {
            notify(OutgoingMessage.notification(ProgressNotification.method, params))
        }
    }
}

/// Maps method names to typed handlers; decoding params and encoding results happen here, so a
/// handler sees only its request struct and returns its response struct.
public struct MethodRegistry: Sendable {
    /// Decodes params, runs the handler, encodes its response; throws ``ResponseError``.
    public typealias Handler = @Sendable (JSONValue?, RequestContext) throws -> JSONValue
    private var handlers: [String: Handler] = [:]

    /// An empty registry.
    public init() {}

    /// Registers the handler of `R.method`.
    public mutating func register<R: MCPRequest>(_ type: R.Type, _ body: @escaping @Sendable (R, RequestContext) throws -> R.Response) {
        handlers[R.method] = { params, context in
            let params = params ?? .object([:])
            let request: R
            if let read = (R.self as? any JSONReadable.Type)?.init(json: params) as? R {
                request = read
            } else {
                do {
                    request = try params.decode(as: R.self)
                } catch {
                    throw ResponseError.invalidParams("Invalid params for \(R.method): \(Self.describe(error))")
                }
            }
            return try JSONValue(encoding: body(request, context))
        }
    }

    /// The handler of `method`, if registered.
    public func handler(for method: String) -> Handler? { handlers[method] }

    public var methods: [String] { handlers.keys.sorted() }

    /// A decoding error in words a client can act on.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let p = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return p.isEmpty ? "params" : p
        }
        switch error {
        case .keyNotFound(let key, _): return "missing required \"\(key.stringValue)\""
        case .typeMismatch(let type, let c): return "\(path(c)) must be \(typeName(type))"
        case .valueNotFound(let type, let c): return "\(path(c)) must be \(typeName(type)), not null"
        case .dataCorrupted(let c): return "\(path(c)): \(c.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default: return "\(type)".contains("Dictionary") ? "an object" : "\(type)".contains("Array") ? "an array" : "of type \(type)"
        }
    }
}
