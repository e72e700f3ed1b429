import Dispatch
import Foundation
import Synchronization

/// Threads of the SQLite backend's own: every statement of a read and of a unit of work, and
/// every COMMIT, runs on one of them.
///
/// SQLite's calls block the thread they run on (the disk, `fsync` at COMMIT, a read of a
/// 50,000-row batch). Swift concurrency's cooperative pool has one thread per core and never
/// grows, so two statements running there would stop every other task of the process on a
/// two-core machine — request handlers included — until they returned. ``SQLiteExecutor`` runs
/// each read and each unit of work under `withTaskExecutorPreference(StatementThreads.shared)`:
/// the statements run here while the caller's task is suspended, its cooperative thread free
/// for others (docs/design.md, "Storage off the request threads").
///
/// One thread more than there are cores, for the whole process whatever number of
/// stores it opens. Work beyond that queues here, first come first served — never on the
/// cooperative pool. A hop here and back costs two thread wake-ups per read or unit of work, not
/// per statement; `orders serve` on SQLite therefore runs its request handling here too
/// (``SQLiteBackend/blockingExecutor``), so that its reads need no hop at all and a long
/// statement holds one of these threads while the others keep answering (Benchmarks/README.md,
/// "Storage off the request threads").
final class StatementThreads: TaskExecutor, Sendable {
    /// The process's statement threads: one per core for the work `orders serve` runs here, and
    /// one more, so that a long statement leaves a core's worth answering. Four (twice the cores)
    /// cost the consent sheet 8–12 % of its throughput on two cores — more runnable threads than
    /// cores beside NIO's event loops (Benchmarks/README.md, "Storage off the request threads").
    static let shared = StatementThreads(threads: ProcessInfo.processInfo.activeProcessorCount + 1, name: "sqlite")

    private struct State {
        var jobs = JobQueue()
        /// Threads waiting for work, the one that waited least on top.
        var idle: [Int] = []
    }

    private let state = Mutex(State())
    private let wakeUps: [DispatchSemaphore]

    /// How many threads there are.
    var count: Int { wakeUps.count }

    private init(threads: Int, name: String) {
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

    func enqueue(_ job: consuming ExecutorJob) {
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
