import Foundation

/// A response body written as it is produced, for Server-Sent Events: a handler returns it in
/// ``HTTPResponse/stream``, any thread may ``send(_:)`` to it, and the connection's thread writes
/// what is queued (and a keep-alive comment when nothing was written for a while) until
/// ``close()``, the client hanging up, or the server stopping.
public final class HTTPEventStream: @unchecked Sendable, Equatable {
    private let condition = NSCondition()
    private var queued: [[UInt8]] = []
    private var closed = false

    /// An open stream with nothing queued.
    public init() {}

    /// Queues `bytes` to be written; `false` (and they are dropped) once the stream is closed.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        queued.append(bytes)
        condition.broadcast()
        return true
    }

    /// Ends the stream: what is queued is still written, then the body ends.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether bytes sent now would be written.
    public var isOpen: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !closed
    }

    /// What the writer does next.
    enum Next: Equatable {
        /// Write these bytes.
        case bytes([UInt8])
        /// Nothing arrived in the time given.
        case idle
        /// Closed and everything queued was taken: end the body.
        case ended
    }

    /// Everything queued, waiting up to `seconds` for something to arrive.
    func next(waitingUpTo seconds: Double) -> Next {
        condition.lock()
        defer { condition.unlock() }
        if queued.isEmpty, !closed { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
        if !queued.isEmpty {
            let bytes = queued.flatMap { $0 }
            queued.removeAll()
            return .bytes(bytes)
        }
        return closed ? .ended : .idle
    }

    /// The same stream.
    public static func == (a: HTTPEventStream, b: HTTPEventStream) -> Bool { a === b }
}
