import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import SkillParser
import SkillServer

/// `skill-http` (and `skill serve --http`): MCP's Streamable HTTP transport, ``MCPHTTPEndpoint``
/// on Hummingbird, until SIGINT or SIGTERM. Hummingbird (SwiftNIO) parses HTTP/1.1, keeps
/// connections alive, decodes chunked bodies in linear time and serves every connection from a
/// few event loops; the MCP handlers, which block on SQLite, run on a ``WorkerPool`` of one
/// thread per core in arrival order.
public enum HTTPTransport {
    /// Where to listen, who may connect, and the limits.
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        public var port = 0
        public var token: String?
        /// Seconds between freshness checks when the folders are not watched; `nil`: no checks.
        public var freshnessInterval: Double? = 1
        /// Watch the skills' folders (inotify) rather than poll.
        public var watch = true
        /// Seconds a connection may take to send a request's head (and a body may pause), and
        /// may sit idle between requests, before it is closed: the bound on slow clients.
        public var requestTimeout: Double = 10
        /// Seconds a stop waits for the replies in flight before closing what remains.
        public var shutdownGrace: Double = 5
        /// Seconds an open GET stream may go without a write before a `: ping` comment.
        public var keepAliveInterval: Double = 15
        /// Threads answering MCP requests at once.
        public var workers = min(max(ProcessInfo.processInfo.activeProcessorCount, 2), 8)
        /// Session caps (``MCPHTTPEndpoint``).
        public var maxSessions = 1000
        public var maxSessionsPerClient = 100
        /// Connections open at once from one client address; more are closed at once.
        public var maxConnectionsPerClient = 1024

        /// The defaults: loopback, a free port, no token.
        public init() {}
    }

    /// The largest request body, after chunked decoding; more is 413.
    public static let maxBodyBytes = 4 << 20
    /// The largest request head (request line and header fields), and the most header fields.
    public static let maxHeadBytes = 16 << 10
    public static let maxHeaderFields = 100

    /// Serves until SIGINT or SIGTERM, then stops accepting, ends the GET streams, lets the
    /// replies in flight finish for up to ``Options/shutdownGrace`` seconds, closes the rest, and
    /// returns 0; 1 when the address cannot be bound. Writes
    /// `skill serve: listening on http://HOST:PORT/mcp` to stderr once bound.
    /// - Parameter makeServer: a server per session, over one shared knowledge base.
    public static func run(options: Options, log: ServerLog, makeServer: @escaping @Sendable () -> MCPServer) async -> Int32 {
        let endpoint = MCPHTTPEndpoint(
            policy: HTTPAccessPolicy(boundTo: options.host, token: options.token), maxSessions: options.maxSessions,
            maxSessionsPerClient: options.maxSessionsPerClient, makeServer: makeServer)
        let responder = MCPResponder(
            endpoint: endpoint, pool: WorkerPool(count: options.workers), keepAliveInterval: options.keepAliveInterval, log: log)
        var logger = Logger(label: "skill-http") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = log.level.swiftLogLevel
        let started = StartedFlag()
        let shown = options.host.contains(":") && !options.host.hasPrefix("[") ? "[\(options.host)]" : options.host
        let timeout = TimeAmount.milliseconds(Int64(options.requestTimeout * 1000))
        let connections = ConnectionsPerClient(limit: options.maxConnectionsPerClient)
        raiseDescriptorLimit()
        let app = Application(
            responder: responder,
            server: .http1(
                configuration: HTTP1Channel.Configuration(
                    additionalChannelHandlers: [
                        connections.handler(), ContinueHandler(maxBodyBytes: maxBodyBytes), BodyCoalescer(),
                    ],
                    idleTimeout: timeout,
                    httpDecoderConfiguration: .init(
                        maxHeaderFieldSize: maxHeadBytes, maxHeaderListSize: maxHeadBytes, maxHeaderFieldCount: maxHeaderFields))),
            configuration: ApplicationConfiguration(address: .hostname(HTTPAccessPolicy.bare(options.host), port: options.port)),
            onServerRunning: { channel in
                started.set()
                let port = channel.localAddress?.port ?? options.port
                FileHandle.standardError.write(Data("skill serve: listening on http://\(shown):\(port)\(endpoint.path)\n".utf8))
            },
            logger: logger
        )
        // list_changed goes to the sessions' GET streams; every later request sees the change.
        let monitor = options.freshnessInterval.map {
            ChangeMonitor(knowledge: endpoint.knowledge, pollInterval: $0, watch: options.watch, log: log) { endpoint.skillsChanged() }
        }
        monitor?.start()
        defer { monitor?.stop() }
        let stopping = StartedFlag()
        // Shut down in reverse order: the streams end first (they would never finish on their
        // own), then the server stops accepting and lets the requests in flight finish.
        let streams = StopHook {
            stopping.set()
            log.info("stopping: finishing the replies in flight")
            endpoint.closeStreams()
        }
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: app), .init(service: streams)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = .milliseconds(Int64(options.shutdownGrace * 1000))
        configuration.maximumCancellationDuration = .seconds(1)
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            guard started.isSet else {
                FileHandle.standardError.write(
                    Data("skill serve: cannot listen on \(options.host):\(options.port): \(reason(error))\n".utf8))
                return 1
            }
            // The grace period ran out: the connections still open were closed.
            if !stopping.isSet { log.error("stopped: \(error)") }
        }
        log.info("stopped")
        return 0
    }

    /// Lets the process open as many descriptors as the system allows it (the soft limit is
    /// often 1,024 while the hard one is far higher): each connection holds one.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The system's words for a bind failure (`Address already in use`).
    static func reason(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }
}

/// A flag set once, read from any thread.
final class StartedFlag: Sendable {
    private let value = Locked(false)

    func set() { value.withLock { $0 = true } }

    var isSet: Bool { value.withLock { $0 } }
}

/// A service that runs `action` when the group starts shutting down, then returns.
struct StopHook: Service {
    let action: @Sendable () -> Void

    func run() async throws {
        try? await gracefulShutdown()
        action()
    }
}

/// The request context: Hummingbird's, plus the connection, to see a client hang up.
struct MCPRequestContext: Hummingbird.RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Copies each request into an ``HTTPRequest``, answers it with the endpoint on a worker, and
/// writes the ``HTTPResponse`` back, streaming it when it is a GET stream.
struct MCPResponder: HTTPResponder {
    typealias Context = MCPRequestContext
    let endpoint: MCPHTTPEndpoint
    let pool: WorkerPool
    let keepAliveInterval: Double
    let log: ServerLog

    /// The body is over ``HTTPTransport/maxBodyBytes``.
    struct TooLarge: Error {}

    func respond(to request: Request, context: Context) async throws -> Response {
        var headers = HTTPHeaders()
        // HTTP/1.1's Host arrives as the `:authority` pseudo-field.
        if let authority = request.head.authority { headers.add("Host", authority) }
        for field in request.headers { headers.add(field.name.rawName, field.value) }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > HTTPTransport.maxBodyBytes {
            return Self.tooLarge()
        }
        var body: [UInt8] = []
        do {
            for try await buffer in request.body {
                guard body.count + buffer.readableBytes <= HTTPTransport.maxBodyBytes else { throw TooLarge() }
                body.append(contentsOf: buffer.readableBytesView)
            }
        } catch is TooLarge {
            return Self.tooLarge()
        }
        let channel = context.channel
        let message = HTTPRequest(
            method: request.method.rawValue, target: request.uri.string, headers: headers, body: body,
            client: channel.remoteAddress?.ipAddress ?? "", connection: HTTPConnection { !channel.isActive })
        let endpoint = endpoint
        let answer = await pool.run { endpoint.handle(message) }
        var fields = HTTPFields()
        for field in answer.headers.fields {
            if let name = HTTPField.Name(field.name) { fields.append(HTTPField(name: name, value: field.value)) }
        }
        let status = HTTPTypes.HTTPResponse.Status(code: answer.status)
        guard let stream = answer.stream else {
            return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
        // The stream ends when the client hangs up, whether or not anything is being written.
        channel.closeFuture.whenComplete { _ in stream.close() }
        let interval = keepAliveInterval
        return Response(
            status: status, headers: fields,
            body: ResponseBody { writer in
                do {
                    loop: while true {
                        switch await stream.next(waitingUpTo: interval) {
                        case .bytes(let bytes): try await writer.write(ByteBuffer(bytes: bytes))
                        case .idle: try await writer.write(ByteBuffer(string: ": ping\n\n"))
                        case .ended: break loop
                        }
                    }
                    try await writer.finish(nil)
                } catch {
                    stream.close()
                    throw error
                }
            })
    }

    private static func tooLarge() -> Response {
        let refusal = HTTPAccessPolicy.error(413, "Content Too Large: a request body is at most \(HTTPTransport.maxBodyBytes) bytes")
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        return Response(status: .contentTooLarge, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: refusal.body)))
    }
}

extension ServerLog.Level {
    /// The same threshold for Hummingbird's own messages.
    var swiftLogLevel: Logger.Level {
        switch self {
        case .off: .critical
        case .error: .error
        case .warning: .warning
        case .info: .info
        case .debug: .debug
        }
    }
}
