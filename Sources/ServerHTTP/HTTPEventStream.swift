import Foundation

/// A response body written as it is produced, for Server-Sent Events: a handler returns it in
/// ``HTTPResponse/stream``, any thread may ``send(_:)`` to it, and the transport writes what
/// ``next(waitingUpTo:)`` gives (and a keep-alive comment when it gives nothing for a while)
/// until ``close()``, the client hanging up, or the server stopping.
public final class HTTPEventStream: @unchecked Sendable, Equatable {
    /// Messages queued for a client that reads slower than they come; more are dropped (a
    /// `list_changed` repeats what an earlier one said).
    static let queueLimit = 64

    private let lock = NSLock()
    private var queued: [[UInt8]] = []
    private var closed = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// An open stream with nothing queued.
    public init() {}

    /// Queues `bytes` to be written; `false` (and they are dropped) once the stream is closed.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        lock.lock()
        guard !closed else {
            lock.unlock()
            return false
        }
        if queued.count < Self.queueLimit { queued.append(bytes) }
        lock.unlock()
        wake()
        return true
    }

    /// Ends the stream: what is queued is still written, then the body ends.
    public func close() {
        lock.lock()
        closed = true
        lock.unlock()
        wake()
    }

    /// Whether bytes sent now would be written.
    public var isOpen: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !closed
    }

    /// What the writer does next.
    public enum Next: Equatable, Sendable {
        /// Write these bytes.
        case bytes([UInt8])
        /// Nothing arrived in the time given.
        case idle
        /// Closed and everything queued was taken: end the body.
        case ended
    }

    /// Everything queued, waiting up to `seconds` for something to arrive. One reader at a time.
    public func next(waitingUpTo seconds: Double) async -> Next {
        if let ready = take() { return ready }
        guard seconds > 0 else { return .idle }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForSend() }
            group.addTask { try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000))) }
            await group.next()
            group.cancelAll()
        }
        return take() ?? .idle
    }

    private func take() -> Next? {
        lock.lock()
        defer { lock.unlock() }
        if !queued.isEmpty {
            let bytes = queued.flatMap { $0 }
            queued.removeAll()
            return .bytes(bytes)
        }
        return closed ? .ended : nil
    }

    /// Returns once something is sent, the stream closes, or the task is cancelled.
    private func waitForSend() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if !queued.isEmpty || closed || Task.isCancelled {
                    lock.unlock()
                    continuation.resume()
                    return
                }
                waiter = continuation
                lock.unlock()
            }
        } onCancel: {
            wake()
        }
    }

    private func wake() {
        lock.lock()
        let waiting = waiter
        waiter = nil
        lock.unlock()
        waiting?.resume()
    }

    /// The same stream.
    public static func == (a: HTTPEventStream, b: HTTPEventStream) -> Bool { a === b }
}
