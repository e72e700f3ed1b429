import OrderStorage
import Synchronization

/// Authoring requests for one order take turns in this process, first come first served: each
/// reads the version the one before it saved, so concurrent writers of an order all succeed
/// instead of losing the compare on `updatedAt` to each other and retrying (issue 52, item 9: 30
/// PATCHes of one order at once answered 9–14 `409`s on PostgreSQL). Writers in other processes
/// still meet at the save's compare, and start again from the newer version.
///
/// An order's entry lives while a writer holds or waits for its turn; the waiters are bounded
/// by the requests the server has in flight.
final class OrderWriterTurns: Sendable {
    private let waiting = Mutex<[FullyQualifiedOrderIdentifier: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `body` when it is this caller's turn for `identifier`.
    func withTurn<T: Sendable>(
        _ identifier: FullyQualifiedOrderIdentifier, _ body: () async throws -> T
    ) async throws -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let mine = waiting.withLock { waiting -> Bool in
                guard waiting[identifier] != nil else {
                    waiting[identifier] = []
                    return true
                }
                waiting[identifier]?.append(continuation)
                return false
            }
            if mine { continuation.resume() }
        }
        defer {
            let next = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
                guard let queue = waiting[identifier], !queue.isEmpty else {
                    waiting[identifier] = nil
                    return nil
                }
                waiting[identifier] = Array(queue.dropFirst())
                return queue.first
            }
            next?.resume()
        }
        return try await body()
    }

    /// How many orders have a writer now (for tests: none once every writer is done).
    var busyOrders: Int { waiting.withLock { $0.count } }
}
