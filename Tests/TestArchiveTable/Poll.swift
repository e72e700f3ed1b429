import Foundation

/// Waiting for what a test cannot be told about — a line in a log, a delivery, a process that
/// exits — by looking again every `interval` until it holds or `timeout` has passed. A deadline,
/// never a count of naps: under the whole suite's load a nap lasts longer than it says. Each
/// returns whether the condition held, for the test to expect.
public enum Poll {
    @discardableResult
    public static func until(
        timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(20), _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if try await condition() { return true }
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: interval)
        }
    }

    /// The same on a thread of the caller's (a process watcher, a blocking socket): sleeps the
    /// thread, never a task of the cooperative pool.
    @discardableResult
    public static func untilBlocking(
        timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(20), _ condition: () throws -> Bool
    ) rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if try condition() { return true }
            guard ContinuousClock.now < deadline else { return false }
            let (seconds, attoseconds) = interval.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        }
    }
}
