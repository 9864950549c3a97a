import Foundation

/// Joins a transport to an ``MCPServer``: classifies each framed line, handles cancellation as
/// soon as it is read, and answers requests one at a time, in order, on its own queue.
public final class ServerConnection: @unchecked Sendable {  // `monitor` is set once, at start, and read in `deinit`
    let server: MCPServer
    let sink: any MessageSink
    private let queue = DispatchQueue(label: "skill.serve.requests")
    /// Bounds the messages read but not yet handled, so memory stays flat whatever the client sends.
    private let window = DispatchSemaphore(value: 64)
    private let inFlight = InFlightRequests()
    private var monitor: ChangeMonitor?
    /// The `subscriptions/listen` requests being held open, each on a thread of its own.
    private let streams = DispatchGroup()

    /// Answers `server`'s messages into `sink`.
    public init(server: MCPServer, sink: any MessageSink) {
        self.server = server
        self.sink = sink
    }

    deinit { monitor?.stop() }

    /// Takes one framed line from the transport. Called from one reader thread.
    public func receive(_ framed: FramedLine) {
        let message: IncomingMessage
        switch framed {
        case .oversized(let count):
            server.log.warning("dropped a line of \(count) bytes (limit \(LineFramer.defaultLimit))")
            message = .invalid(
                id: nil,
                ResponseError(
                    .invalidRequest, "Invalid Request: a line of \(count) bytes exceeds the limit of \(LineFramer.defaultLimit) bytes"))
        case .line(let data):
            message = IncomingMessage.parse(data)
        }
        switch message {
        case .notification(CancelledNotification.method, let params):
            if let id = inFlight.cancel(params) {
                server.log.debug("cancelled \(id)")
                server.cancelSubscription(id)
            }
            return
        case .request(let id, SubscriptionsListenRequest.method, let params):
            // Held open until it ends, so not on the queue that answers requests in order.
            inFlight.begin(id)
            let sink = self.sink
            DispatchQueue.global().async(group: streams) { [server, inFlight] in
                let reply = server.respond(
                    id: id, method: SubscriptionsListenRequest.method, params: params,
                    isCancelled: { inFlight.isCancelled(id) }, notify: { sink.send($0) }, streaming: true)
                if !inFlight.complete(id) { sink.send(reply) }
            }
            return
        case .request(let id, let method, _) where method != InitializeRequest.method && method != DiscoverRequest.method:
            // initialize and server/discover may not be cancelled (the specification forbids it).
            inFlight.begin(id)
        case .response:
            server.log.debug("ignored a response: this server sends no requests")
            return
        default: break
        }
        window.wait()
        queue.async { [self] in
            defer { window.signal() }
            process(message)
        }
    }

    /// Waits until every message received so far is answered and written (open
    /// `subscriptions/listen` streams stay open: ``close()`` ends them).
    public func finish() {
        queue.sync {}
    }

    /// Ends every `subscriptions/listen` stream gracefully (each gets its empty result) and
    /// waits until their results are written: at end of input, before exiting.
    public func close() {
        finish()
        server.closeSubscriptions()
        streams.wait()
    }

    /// Watches the skills' folders (or, when that is impossible or `watch` is false, checks every
    /// `interval` seconds), off the reply path, and tells a session's client when they changed.
    public func startFreshnessChecks(every interval: Double, watch: Bool = true) {
        let monitor = ChangeMonitor(knowledge: server.knowledge, pollInterval: interval, watch: watch, log: server.log) { [server, sink] in
            for note in server.listChangedNotifications() { sink.send(note) }
            server.skillsChanged()
        }
        monitor.start()
        self.monitor = monitor
    }

    /// One freshness check, as the monitor makes (tests call it directly).
    public func checkFreshness() {
        guard server.knowledge.refresh() else { return }
        for note in server.listChangedNotifications() { sink.send(note) }
        server.skillsChanged()
    }

    private func process(_ message: IncomingMessage) {
        switch message {
        case .request(let id, let method, let params):
            if inFlight.isCancelled(id) {
                _ = inFlight.complete(id)
                return
            }
            let sink = self.sink
            let reply = server.respond(
                id: id, method: method, params: params, isCancelled: { [inFlight] in inFlight.isCancelled(id) }, notify: { sink.send($0) })
            if !inFlight.complete(id) { sink.send(reply) }
        case .notification(let method, let params):
            server.notify(method: method, params: params)
        case .invalid(let id, let error):
            sink.send(OutgoingMessage.error(id: id, error))
        case .batch(let items):
            processBatch(items)
        case .response:
            break
        }
    }

    /// A JSON-RPC batch: answered as an array under 2025-03-26, the only revision that has them
    /// on stdio; otherwise one -32600.
    private func processBatch(_ items: [JSONValue]) {
        guard server.acceptsBatches, !items.isEmpty else {
            let why = items.isEmpty ? "an empty batch" : "JSON-RPC batches exist only in protocol 2025-03-26; send one message per line"
            sink.send(OutgoingMessage.error(id: nil, ResponseError(.invalidRequest, "Invalid Request: \(why)")))
            return
        }
        var replies: [JSONValue] = []
        for item in items {
            switch IncomingMessage.classify(item) {
            case .request(let id, let method, let params):
                replies.append(server.respond(id: id, method: method, params: params))
            case .notification(let method, let params):
                server.notify(method: method, params: params)
            case .invalid(let id, let error):
                replies.append(OutgoingMessage.error(id: id, error))
            case .batch, .response:
                break
            }
        }
        if !replies.isEmpty { sink.send(.array(replies)) }
    }
}
