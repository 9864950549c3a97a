import Foundation

/// A value reachable only under a lock: the one way code in this package takes a lock.
///
/// NSLock-based (the macOS 13 target rules out `Synchronization.Mutex`). Not recursive: a
/// `withLock` body must not call `withLock` on the same instance.
package final class Locked<Value>: @unchecked Sendable {  // `value` is read and written only under `lock`
    private let lock = NSLock()
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked where Value == Void {
    /// A lock guarding no value (it serialises calls).
    package convenience init() { self.init(()) }

    /// Runs `body` holding the lock.
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try withLock { (_: inout Void) in try body() }
    }
}

/// A ``Locked`` value that threads can wait on until it is in a state they need (NSCondition).
package final class LockedCondition<Value>: @unchecked Sendable {  // `value` is read and written only under `condition`
    /// Whom a change wakes among the threads waiting.
    package enum Wake {
        case none, one, all
    }

    private let condition = NSCondition()
    private var value: Value

    /// A lock and condition guarding `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock, once `ready` holds (waiting for changes
    /// until then); then wakes `wake` of the waiting threads.
    package func withLock<R>(
        waitingUntil ready: (Value) -> Bool = { _ in true }, wake: Wake = .none, then body: (inout Value) throws -> R
    ) rethrows -> R {
        condition.lock()
        defer {
            switch wake {
            case .none: break
            case .one: condition.signal()
            case .all: condition.broadcast()
            }
            condition.unlock()
        }
        while !ready(value) { condition.wait() }
        return try body(&value)
    }

    /// Returns once `ready` holds (waiting for changes until then).
    package func wait(until ready: (Value) -> Bool) {
        withLock(waitingUntil: ready, then: { _ in })
    }
}
