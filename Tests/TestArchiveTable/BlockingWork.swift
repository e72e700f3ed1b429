import Foundation

/// Blocking work (waiting on a child process, a blocking socket, a sleep) on a thread of its own.
///
/// Every test target runs in one process, and on Linux Swift concurrency's pool has one thread per
/// core with no compensation for a blocked one; Dispatch's global queues share that pool's limit
/// and add a thread about once a second. A test that blocks either stalls every other test's
/// tasks — the in-process servers' handlers among them — until it is done. A thread of its own
/// blocks nobody.
public enum BlockingWork {
    /// Runs `work` on a new thread and returns what it returned.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// Runs `work` on a new thread and returns what it returned, or throws what it threw.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await run { Result { try work() } }.get()
    }

    /// Runs `body(0)`…`body(count - 1)` on `count` threads at once and returns their results in order.
    public static func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) async -> [T] {
        await withTaskGroup(of: (Int, T).self) { group in
            for index in 0..<count {
                group.addTask { (index, await run { body(index) }) }
            }
            var results: [(Int, T)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}

extension Process {
    /// Waits for the process to end without holding a thread: in an async function the compiler
    /// picks this over Foundation's blocking `waitUntilExit()`. It looks every 5 ms (Foundation
    /// records the termination status before it clears `isRunning`).
    public func waitUntilExit() async {
        while isRunning { try? await Task.sleep(for: .milliseconds(5)) }
    }
}
