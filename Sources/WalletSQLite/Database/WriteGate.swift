import WalletCore

/// One writer at a time for a backend, across suspension points.
///
/// GRDB serializes each write closure, but a unit of work (``SQLiteBackend/withTransaction(_:)``)
/// keeps a transaction open on the pool's one writer connection across several closures and
/// `await`s. Every write of the backend therefore passes this gate, so nothing else writes on that
/// connection (inside the open transaction) meanwhile. First come, first served.
actor WriteGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func leave() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
