import Foundation
import SkillParser

/// The requests of one client being answered, and those it cancelled (`notifications/cancelled`):
/// a cancelled request stops at its next check and its reply is dropped. One per stdio
/// connection and one per HTTP session, so a client can cancel only its own requests.
package final class InFlightRequests: Sendable {
    private struct State {
        /// How many times each id is in flight: a client may reuse an id, and each use completes once.
        var pending: [RequestID: Int] = [:]
        var cancelled = Set<RequestID>()
    }
    private let state = Locked(State())

    /// Nothing in flight.
    package init() {}

    /// Notes a request received and not yet answered.
    package func begin(_ id: RequestID) {
        state.withLock { $0.pending[id, default: 0] += 1 }
    }

    /// Marks the request named by a `notifications/cancelled`'s `requestId` as cancelled when it is
    /// in flight (an unknown or finished one is ignored, as the specification asks); returns it.
    @discardableResult
    package func cancel(_ params: JSONValue?) -> RequestID? {
        guard let raw = params?["requestId"], let id = RequestID(raw) else { return nil }
        state.withLock { state in
            if state.pending[id] != nil { state.cancelled.insert(id) }
        }
        return id
    }

    /// Whether `id` was cancelled while in flight.
    package func isCancelled(_ id: RequestID) -> Bool {
        state.withLock { $0.cancelled.contains(id) }
    }

    /// Forgets a finished request; `true` when it was cancelled (its reply is then dropped).
    package func complete(_ id: RequestID) -> Bool {
        state.withLock { state in
            if let n = state.pending[id], n > 1 { state.pending[id] = n - 1 } else { state.pending[id] = nil }
            return state.cancelled.remove(id) != nil
        }
    }
}
