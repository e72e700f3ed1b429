import Synchronization

/// Long-lived responses open at once (history streams), per client and in total: one more than
/// allowed is refused rather than held.
package final class StreamLimiter: Sendable {
    private struct State {
        package var perClient: [String: Int] = [:]
        package var total = 0
    }

    private let state = Mutex(State())
    package let perClient: Int
    package let total: Int

    package init(perClient: Int, total: Int) {
        self.perClient = perClient
        self.total = total
    }

    /// Counts a stream for `client`; false (and nothing counted) when a bound is reached.
    package func open(for client: String) -> Bool {
        state.withLock { state in
            guard state.total < total, state.perClient[client, default: 0] < perClient else { return false }
            state.total += 1
            state.perClient[client, default: 0] += 1
            return true
        }
    }

    package func close(for client: String) {
        state.withLock { state in
            state.total -= 1
            let remaining = state.perClient[client, default: 1] - 1
            state.perClient[client] = remaining > 0 ? remaining : nil
        }
    }
}
