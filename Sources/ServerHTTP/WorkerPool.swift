import Foundation
import SkillParser

/// A fixed set of threads that run blocking work (a search in SQLite) in arrival order, so that
/// the HTTP library's event loops and Swift's cooperative threads never wait on it, every core
/// works, and a slow request holds one worker while the others keep answering.
public final class WorkerPool: Sendable {
    /// The jobs queued, the first `head` of them taken.
    private let queue = LockedCondition((jobs: [@Sendable () -> Void](), head: 0))

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
        queue.withLock(wake: .one) { $0.jobs.append(job) }
    }

    private func work() {
        while true {
            let job = queue.withLock(
                waitingUntil: { $0.head < $0.jobs.count },
                then: { queue in
                    let job = queue.jobs[queue.head]
                    queue.head += 1
                    // Drop what was taken once it is half the array: each job is moved once (linear).
                    if queue.head * 2 >= queue.jobs.count, queue.head > 64 {
                        queue.jobs.removeFirst(queue.head)
                        queue.head = 0
                    }
                    return job
                })
            job()
        }
    }
}
