import Foundation

/// A fixed set of threads that run blocking work (a search in SQLite) in arrival order, so that
/// the HTTP library's event loops and Swift's cooperative threads never wait on it, every core
/// works, and a slow request holds one worker while the others keep answering.
public final class WorkerPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    private var head = 0

    /// `count` threads, started now; they live as long as the process.
    public init(count: Int) {
        for _ in 0..<max(1, count) {
            let thread = Thread { [self] in work() }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Runs `job` on a worker and returns its result.
    public func run<T: Sendable>(_ job: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            enqueue { continuation.resume(returning: job()) }
        }
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == queue.count { condition.wait() }
            let job = queue[head]
            head += 1
            // Drop what was taken once it is half the array: each job is moved once (linear).
            if head * 2 >= queue.count, head > 64 {
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}
