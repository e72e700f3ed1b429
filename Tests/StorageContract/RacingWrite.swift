import Synchronization
import TestArchiveTable
import WalletStorage

/// A write started from another task while a unit of work is open, and the explicit wait for the
/// race to be set up: until the write waits behind the unit (the backend says a writer is blocked,
/// ``WalletStorage/WriteContention``) or has finished without having to (PostgreSQL writing rows
/// the unit does not hold). Never a sleep "to let the other task reach its lock": under the whole
/// suite's load it might not have, and the test would pass without racing.
public final class RacingWrite<Value: Sendable>: Sendable {
    public let task: Task<Value, any Error>
    private let finished: Finished

    /// Set once the write has returned or thrown.
    private final class Finished: Sendable {
        let flag = Mutex(false)
    }

    public init(_ body: @escaping @Sendable () async throws -> Value) {
        let finished = Finished()
        self.finished = finished
        task = Task {
            defer { finished.flag.withLock { $0 = true } }
            return try await body()
        }
    }

    /// Returns once the write waits behind another writer of `backend`, or is done; throws when
    /// neither happened within a minute.
    public func waitUntilBlockedOrDone(on backend: any StorageBackend) async throws {
        guard let contention = backend as? any WriteContention else { throw RaceNotObservable() }
        let ready = try await Poll.until(timeout: .seconds(60), every: .milliseconds(2)) {
            if finished.flag.withLock({ $0 }) { return true }
            return try await contention.blockedWriters() > 0
        }
        if !ready { throw RaceNotObservable() }
    }

    public var value: Value {
        get async throws { try await task.value }
    }
}

/// The racing write neither waited nor finished within a minute, or the backend cannot say.
public struct RaceNotObservable: Error {}
