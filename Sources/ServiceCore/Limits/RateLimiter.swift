import Synchronization

/// How often something may happen: a burst of ``burst`` at once, then ``perSecond`` on average
/// (a token bucket's size and refill rate).
public struct Rate: Sendable, Hashable, CustomStringConvertible {
    public var burst: Int
    public var perSecond: Double

    public init(burst: Int, perSecond: Double) {
        self.burst = burst
        self.perSecond = perSecond
    }

    public var description: String { "\(burst) at once, then \(perSecond)/s" }
}

/// Token buckets: one per client address and one for everybody. An event is admitted when both
/// the client's bucket and the shared one hold a token, and then takes one from each.
///
/// The table of addresses is bounded by ``maximumClients``, since a stranger controls how many
/// addresses it comes from: when it is full, buckets that have refilled (which admit exactly as a
/// new bucket would) are forgotten, and if none has, every bucket is — the shared bucket still
/// bounds what all of them may do together. Time comes from an injected clock.
package final class RateLimiter: Sendable {
    private struct Bucket {
        package var tokens: Double
        package var updated: ContinuousClock.Instant

        /// Refills for the time since the last update, then takes a token if there is one.
        package mutating func take(at now: ContinuousClock.Instant, rate: Rate) -> Bool {
            refill(at: now, rate: rate)
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }

        package mutating func refill(at now: ContinuousClock.Instant, rate: Rate) {
            let elapsed = now - updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(Double(rate.burst), tokens + max(0, seconds) * rate.perSecond)
            updated = now
        }
    }

    private struct State {
        package var clients: [String: Bucket] = [:]
        package var total: Bucket
    }

    package let perClient: Rate?
    package let total: Rate?
    package let maximumClients: Int
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let state: Mutex<State>

    package init(
        perClient: Rate?, total: Rate?, maximumClients: Int = 10_000,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.perClient = perClient
        self.total = total
        self.maximumClients = max(1, maximumClients)
        self.clock = clock
        state = Mutex(State(total: Bucket(tokens: Double(total?.burst ?? 0), updated: clock())))
    }

    /// Seconds until a client refused by its own rate may try again.
    package var retryAfter: Int {
        guard let perSecond = perClient?.perSecond, perSecond > 0 else { return 3_600 }
        return max(1, Int((1 / perSecond).rounded(.up)))
    }

    /// Whether `client` may go ahead now; if so, the event is counted against its rate and the
    /// total.
    package func admit(client: String) -> Bool {
        let now = clock()
        return state.withLock { state in
            if let total {
                state.total.refill(at: now, rate: total)
                guard state.total.tokens >= 1 else { return false }
            }
            if let perClient {
                if state.clients[client] == nil, state.clients.count >= maximumClients {
                    forgetRefilled(&state.clients, at: now, rate: perClient)
                }
                var bucket = state.clients[client] ?? Bucket(tokens: Double(perClient.burst), updated: now)
                let admitted = bucket.take(at: now, rate: perClient)
                state.clients[client] = bucket
                guard admitted else { return false }
            }
            if total != nil { state.total.tokens -= 1 }
            return true
        }
    }

    /// How many client buckets are held now (for tests of the bound).
    package var clientCount: Int { state.withLock { $0.clients.count } }

    private func forgetRefilled(_ clients: inout [String: Bucket], at now: ContinuousClock.Instant, rate: Rate) {
        clients = clients.filter { _, bucket in
            var bucket = bucket
            bucket.refill(at: now, rate: rate)
            return bucket.tokens < Double(rate.burst)
        }
        if clients.count >= maximumClients { clients.removeAll(keepingCapacity: true) }
    }
}
