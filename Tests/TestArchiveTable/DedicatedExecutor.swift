import Foundation

/// A task executor with threads of its own, for servers running inside the test process.
///
/// Every test runs on Swift concurrency's pool, one thread per core, which a busy test holds until
/// it next suspends (the pool never preempts): with a few CPU-bound tests running, an in-process
/// server's handlers waited seconds for a thread, and raw-socket clients with 10-second timeouts
/// saw none. Under `withTaskExecutorPreference(DedicatedExecutor.servers)`, a server's tasks —
/// and the tasks they start — run here instead, where nothing else queues.
public final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    /// Two threads, shared by the test process's in-process servers.
    public static let servers = DedicatedExecutor(threads: 2, name: "test-servers")

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    public init(threads: Int, name: String) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() -> Never {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
