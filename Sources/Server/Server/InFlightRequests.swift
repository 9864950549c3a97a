import Foundation

/// The requests of one client being answered, and those it cancelled (`notifications/cancelled`):
/// a cancelled request stops at its next check and its reply is dropped. One per stdio
/// connection and one per HTTP session, so a client can cancel only its own requests.
package final class InFlightRequests: @unchecked Sendable {
    private let lock = NSLock()
    /// How many times each id is in flight: a client may reuse an id, and each use completes once.
    private var pending: [RequestID: Int] = [:]
    private var cancelled = Set<RequestID>()

    /// Nothing in flight.
    package init() {}

    /// Notes a request received and not yet answered.
    package func begin(_ id: RequestID) {
        lock.lock()
        pending[id, default: 0] += 1
        lock.unlock()
    }

    /// Marks the request named by a `notifications/cancelled`'s `requestId` as cancelled when it is
    /// in flight (an unknown or finished one is ignored, as the specification asks); returns it.
    @discardableResult
    package func cancel(_ params: JSONValue?) -> RequestID? {
        guard let raw = params?["requestId"], let id = RequestID(raw) else { return nil }
        lock.lock()
        if pending[id] != nil { cancelled.insert(id) }
        lock.unlock()
        return id
    }

    /// Whether `id` was cancelled while in flight.
    package func isCancelled(_ id: RequestID) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled.contains(id)
    }

    /// Forgets a finished request; `true` when it was cancelled (its reply is then dropped).
    package func complete(_ id: RequestID) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let n = pending[id], n > 1 { pending[id] = n - 1 } else { pending[id] = nil }
        return cancelled.remove(id) != nil
    }
}
