import Foundation
import SkillParser

/// The open `subscriptions/listen` streams of one server (2026-07-28). A stream is a request
/// whose handler is held open: the acknowledgment goes out first, then every change event it
/// asked for, each through the request's own `notify` (so on stdio they share stdout, and a
/// transport with a response stream per request would carry them there), until the client
/// cancels it or the server closes it (then its empty result ends it gracefully).
final class ListenStreams: Sendable {
    /// At most this many streams at once; one more is refused (-32603), as the official SDK does.
    static let maxStreams = 64

    private final class Stream: @unchecked Sendable {  // `digests` is read and written only under the streams' lock
        let id: RequestID
        let honoured: SubscriptionFilter
        let notify: @Sendable (JSONValue) -> Void
        let ended = DispatchSemaphore(value: 0)
        /// The digests last seen of the subscribed URIs (`nil`: no file there).
        var digests: [String: String?]

        init(id: RequestID, honoured: SubscriptionFilter, notify: @escaping @Sendable (JSONValue) -> Void, digests: [String: String?]) {
            self.id = id
            self.honoured = honoured
            self.notify = notify
            self.digests = digests
        }
    }

    private let state = Locked((streams: [RequestID: Stream](), closed: false))

    /// The part of `requested` this server honours: every list-changed kind (tools never change,
    /// so that one never fires) and `resourceSubscriptions` (an event when the file's digest
    /// changes or it goes away); false flags and an empty list are left out.
    static func honoured(_ requested: SubscriptionFilter) -> SubscriptionFilter {
        SubscriptionFilter(
            toolsListChanged: requested.toolsListChanged == true ? true : nil,
            promptsListChanged: requested.promptsListChanged == true ? true : nil,
            resourcesListChanged: requested.resourcesListChanged == true ? true : nil,
            resourceSubscriptions: requested.resourceSubscriptions.flatMap { uris in
                var seen = Set<String>()
                let unique = uris.filter { seen.insert($0).inserted }
                return unique.isEmpty ? nil : unique
            })
    }

    /// Opens the stream of request `id`, sends its acknowledgment, and blocks until it ends.
    /// - Returns: `true` when the server closed it (answer with the graceful result), `false`
    ///   when the client cancelled it (answer nothing).
    /// - Throws: -32603 when the server is closing or holds ``maxStreams`` streams.
    func serve(
        id: RequestID, requested: SubscriptionFilter, digest: (String) -> String?, notify: @escaping @Sendable (JSONValue) -> Void,
        isCancelled: () -> Bool
    ) throws -> Bool {
        let honoured = Self.honoured(requested)
        var digests: [String: String?] = [:]
        for uri in honoured.resourceSubscriptions ?? [] { digests[uri] = .some(digest(uri)) }
        let stream = Stream(id: id, honoured: honoured, notify: notify, digests: digests)
        try state.withLock { state in
            guard !state.closed, state.streams.count < Self.maxStreams, state.streams[id] == nil else {
                let why =
                    state.closed
                    ? "the server is shutting down" : state.streams[id] != nil ? "a stream with this id is open" : "too many streams"
                throw ResponseError(.internalError, "Cannot open the subscription: \(why)")
            }
            state.streams[id] = stream
            // Under the lock, so no event of this stream can precede it.
            let ack = SubscriptionsAcknowledgedNotification(notifications: honoured, subscriptionId: id)
            if let params = try? JSONValue(encoding: ack) {
                notify(OutgoingMessage.notification(SubscriptionsAcknowledgedNotification.method, params))
            }
        }
        // A transport that cancels by hanging up (HTTP) is noticed by polling `isCancelled`.
        while stream.ended.wait(timeout: .now() + 0.2) == .timedOut {
            if isCancelled() {
                remove(id)
                return false
            }
        }
        return !isCancelled()
    }

    /// Ends the stream of request `id` (the client cancelled it): its handler returns.
    func cancel(_ id: RequestID) {
        guard let stream = remove(id) else { return }
        stream.ended.signal()
    }

    /// Ends every stream gracefully and refuses new ones (the server is shutting down).
    func closeAll() {
        let all = state.withLock { state in
            state.closed = true
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        for stream in all { stream.ended.signal() }
    }

    /// How many streams are open.
    var count: Int {
        state.withLock { $0.streams.count }
    }

    /// Tells every stream what changed: the resource and prompt lists (when `listsChanged`), and
    /// each subscribed URI whose digest is no longer the one last seen.
    func publish(listsChanged: Bool, digest: (String) -> String?) {
        state.withLock { state in
            for stream in state.streams.values {
                var events: [(String, String?)] = []
                if listsChanged {
                    if stream.honoured.resourcesListChanged == true { events.append(("notifications/resources/list_changed", nil)) }
                    if stream.honoured.promptsListChanged == true { events.append(("notifications/prompts/list_changed", nil)) }
                }
                for (uri, before) in stream.digests {
                    let now = digest(uri)
                    if now != before {
                        stream.digests[uri] = .some(now)
                        events.append(("notifications/resources/updated", uri))
                    }
                }
                for (method, uri) in events {
                    guard let params = try? JSONValue(encoding: StreamedChangeParams(uri: uri, subscriptionId: stream.id)) else { continue }
                    stream.notify(OutgoingMessage.notification(method, params))
                }
            }
        }
    }

    @discardableResult
    private func remove(_ id: RequestID) -> Stream? {
        state.withLock { $0.streams.removeValue(forKey: id) }
    }
}
