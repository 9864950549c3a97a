import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `skill serve --http`: MCP's Streamable HTTP transport over ``HTTPServer`` and
/// ``MCPHTTPEndpoint``, until SIGINT or SIGTERM.
public enum HTTPTransport {
    /// Where to listen and who may connect.
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        public var port = 0
        public var token: String?
        /// Seconds between freshness checks when the folders are not watched; `nil`: no checks.
        public var freshnessInterval: Double? = 1
        /// Watch the skills' folders (inotify) rather than poll.
        public var watch = true

        /// The defaults: loopback, a free port, no token.
        public init() {}
    }

    /// Serves until SIGINT or SIGTERM, then finishes the replies in flight and returns 0; 1
    /// when the address cannot be bound. Prints `listening on http://HOST:PORT/mcp` to stderr.
    /// - Parameter makeServer: a server per session, over one shared knowledge base.
    public static func run(options: Options, log: ServerLog, makeServer: @escaping @Sendable () -> MCPServer) -> Int32 {
        let endpoint = MCPHTTPEndpoint(policy: HTTPAccessPolicy(boundTo: options.host, token: options.token), makeServer: makeServer)
        let server = HTTPServer(log: log, handler: endpoint.handle)
        let port: Int
        do {
            port = try server.bind(host: options.host, port: options.port)
        } catch {
            FileHandle.standardError.write(Data("skill serve: \(error)\n".utf8))
            return 1
        }
        var signals: [any DispatchSourceSignal] = []
        // A signal source is installed asynchronously: wait until both are, so that a SIGTERM
        // sent as soon as "listening" is printed is handled, not ignored.
        let registered = DispatchGroup()
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                log.info("signal \(number): finishing the replies in flight")
                server.stop()
            }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            signals.append(source)
        }
        registered.wait()
        // list_changed goes to the sessions' GET streams; every later request sees the change.
        let monitor = options.freshnessInterval.map {
            ChangeMonitor(knowledge: endpoint.knowledge, pollInterval: $0, watch: options.watch, log: log) { endpoint.skillsChanged() }
        }
        monitor?.start()
        let shown = options.host.contains(":") && !options.host.hasPrefix("[") ? "[\(options.host)]" : options.host
        FileHandle.standardError.write(Data("skill serve: listening on http://\(shown):\(port)\(endpoint.path)\n".utf8))
        server.run()
        monitor?.stop()
        for signal in signals { signal.cancel() }
        log.info("stopped: every reply written")
        return 0
    }
}
