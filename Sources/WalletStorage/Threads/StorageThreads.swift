import Dispatch
import Foundation
import Synchronization

/// Threads of a storage backend's own, on which its reads and units of work run and, in
/// `orders serve`, its request handlers (docs/design.md, "One threading model").
///
/// Each backend makes one instance and keeps it private (`sqlite-N` statement threads, whose
/// calls block; `postgres-N`, whose transaction bodies — the repositories' code and the decoding
/// of their rows — run here while the statements themselves go out on PostgreSQL's own event
/// loops). Swift concurrency's cooperative pool has one thread per core and never grows: a
/// blocked SQLite statement, or the CPU work of a 50,000-row import, run there or on an event
/// loop, would hold one of a few threads every other task of the process needs. Run here, it
/// holds one of these while the others keep answering.
///
/// One thread more than there are cores, so that a long unit of work leaves a core's worth
/// answering. Work beyond that queues here, first come first served — never on the
/// cooperative pool. Four threads on two cores (twice the cores) cost the consent sheet 8–12 %
/// of its throughput: more runnable threads than cores beside NIO's event loops
/// (Benchmarks/README.md, "Storage off the request threads").
package final class StorageThreads: TaskExecutor, Sendable {
    private struct State {
        var jobs = JobQueue()
        /// Threads waiting for work, the one that waited least on top.
        var idle: [Int] = []
    }

    private let state = Mutex(State())
    private let wakeUps: [DispatchSemaphore]

    /// How many threads there are.
    package var count: Int { wakeUps.count }

    /// `threads` threads named `name-0`, `name-1`, …, started now and never ended: a backend
    /// makes one instance for the process, whatever number of stores it opens.
    package init(threads: Int = ProcessInfo.processInfo.activeProcessorCount + 1, name: String) {
        wakeUps = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<threads {
            Thread { [unowned self] in
                Self.nameCurrentThread("\(name)-\(index)")
                self.work(index)
            }.start()
        }
    }

    /// Names the calling thread for the system, as `top -H` and `/proc` show it. Not through
    /// `Thread.current.name`: Foundation passes that on only once the thread's `start()` has
    /// returned, a race the new thread can win — it then keeps its creator's name.
    private static func nameCurrentThread(_ name: String) {
        #if os(Linux)
            guard let file = fopen("/proc/thread-self/comm", "w") else { return }
            fputs(name, file)
            fclose(file)
        #endif
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let woken = state.withLock { state in
            state.jobs.append(job)
            return state.idle.popLast()
        }
        if let woken { wakeUps[woken].signal() }
    }

    /// Takes jobs while there are any, then waits to be woken. Waking the thread that went idle
    /// last (not the one that waited longest) keeps short reads on the one or two threads that
    /// last ran beside the request threads, away from a core that a long import holds: a wake-up
    /// in FIFO order measured up to 2.8× the idle p99 beside an import.
    private func work(_ index: Int) -> Never {
        while true {
            let job = state.withLock { state in
                let job = state.jobs.removeFirst()
                if job == nil { state.idle.append(index) }
                return job
            }
            if let job {
                job.runSynchronously(on: asUnownedTaskExecutor())
            } else {
                wakeUps[index].wait()
            }
        }
    }
}

/// A first-in first-out ring of jobs: `Array.removeFirst()` would move every waiting job.
private struct JobQueue {
    private var slots: [UnownedJob?] = Array(repeating: nil, count: 64)
    private var head = 0
    private var count = 0

    mutating func append(_ job: UnownedJob) {
        if count == slots.count {
            slots = (0..<count).map { slots[(head + $0) % count] } + Array(repeating: nil, count: count)
            head = 0
        }
        slots[(head + count) % slots.count] = job
        count += 1
    }

    mutating func removeFirst() -> UnownedJob? {
        guard count > 0 else { return nil }
        let job = slots[head]
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        return job
    }
}
