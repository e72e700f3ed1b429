import Synchronization

/// One writer at a time for a backend, across suspension points.
///
/// GRDB serializes each write closure, but a unit of work (``SQLiteBackend/withTransaction(_:)``)
/// keeps a transaction open on the pool's one writer connection across several closures and
/// `await`s. Every write of the backend therefore passes this gate, so nothing else writes on that
/// connection (inside the open transaction) meanwhile. First come, first served.
///
/// Not an actor: an uncontended write (the common case) takes the gate with one lock and runs in
/// its caller's context; hopping onto an actor and back cost about 100 µs per save on two cores
/// (Benchmarks, OrderStore). Only a writer that finds the gate taken suspends.
final class WriteGate: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let entered = state.withLock { state in
            guard !state.busy else { return false }
            state.busy = true
            return true
        }
        if !entered {
            await withCheckedContinuation { continuation in
                // The holder may have left since the check above.
                let now = state.withLock { state in
                    guard state.busy else {
                        state.busy = true
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
        defer { leave() }
        return try await body()
    }

    /// How many writers wait for the gate now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Hands the gate to the next waiter (it stays taken), or opens it.
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
