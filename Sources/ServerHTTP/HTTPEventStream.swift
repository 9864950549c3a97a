import Foundation
import SkillParser

/// A response body written as it is produced, for Server-Sent Events: a handler returns it in
/// ``HTTPResponse/stream``, any thread may ``send(_:)`` to it, and the transport writes what
/// ``next(waitingUpTo:)`` gives (and a keep-alive comment when it gives nothing for a while)
/// until ``close()``, the client hanging up, or the server stopping.
public final class HTTPEventStream: Sendable, Equatable {
    /// Messages queued for a client that reads slower than they come; more are dropped (a
    /// `list_changed` repeats what an earlier one said).
    static let queueLimit = 64

    private struct State {
        var queued: [[UInt8]] = []
        var closed = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Locked(State())

    /// An open stream with nothing queued.
    public init() {}

    /// Queues `bytes` to be written; `false` (and they are dropped) once the stream is closed.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        let open = state.withLock { state in
            guard !state.closed else { return false }
            if state.queued.count < Self.queueLimit { state.queued.append(bytes) }
            return true
        }
        guard open else { return false }
        wake()
        return true
    }

    /// Ends the stream: what is queued is still written, then the body ends.
    public func close() {
        state.withLock { $0.closed = true }
        wake()
    }

    /// Whether bytes sent now would be written.
    public var isOpen: Bool {
        state.withLock { !$0.closed }
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
        state.withLock { state in
            if !state.queued.isEmpty {
                let bytes = state.queued.flatMap { $0 }
                state.queued.removeAll()
                return .bytes(bytes)
            }
            return state.closed ? .ended : nil
        }
    }

    /// Returns once something is sent, the stream closes, or the task is cancelled.
    private func waitForSend() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if !state.queued.isEmpty || state.closed || Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            wake()
        }
    }

    private func wake() {
        let waiting = state.withLock { state in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiting?.resume()
    }

    /// The same stream.
    public static func == (a: HTTPEventStream, b: HTTPEventStream) -> Bool { a === b }
}
