import Foundation
import Synchronization
import WalletCore

/// What ``WalletStore/authenticateAPIKey(_:)`` last read of each key identifier — the secret's
/// digest (or that there is none) and, once a right secret was shown, the key — kept for at most
/// ``WalletConfiguration/apiKeyStaleness`` by the store's clock, so that a merchant backend's
/// requests do not each read the key again.
///
/// The bound is on staleness: a key revoked by another process (another `orders serve`, `orders
/// keys revoke`) is refused by this one at most that long after; revoked through this store, at
/// once. Unknown identifiers are kept as well, so that whether a read happens depends on how
/// recently an identifier was presented, not on whether it exists. At most ``capacity``
/// identifiers are kept: beyond that, all are dropped and read again.
final class APIKeyCache: Sendable {
    struct Entry: Sendable {
        /// The stored digest of the secret; nil when no key has the identifier.
        var secretDigest: String?
        /// The key, read after a right secret was presented; nil until then.
        var key: APIKey?
        /// When the digest was read.
        var readAt: Date
    }

    /// How many identifiers are kept at most.
    static let capacity = 10_000

    private let staleness: TimeInterval
    private let state = Mutex(State())

    private struct State {
        var entries: [String: Entry] = [:]
        /// Moved by every ``APIKeyCache/forget(_:)``: an entry read before a revocation here is
        /// not kept after it.
        var revocations = 0
    }

    init(staleness: Duration) {
        let parts = staleness.components
        self.staleness = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// The entry of `identifier` if it was read less than the staleness bound before `now`
    /// (and not after it: a clock set back makes every entry stale); and the revocation count to
    /// give ``keep(_:for:readAfter:)`` with what is read instead.
    func fresh(_ identifier: String, now: Date) -> (entry: Entry?, revocations: Int) {
        state.withLock { state in
            guard staleness > 0, let entry = state.entries[identifier] else { return (nil, state.revocations) }
            let age = now.timeIntervalSince(entry.readAt)
            return (age >= 0 && age < staleness ? entry : nil, state.revocations)
        }
    }

    /// Keeps `entry` unless a key was revoked here since `revocations` was read.
    func keep(_ entry: Entry, for identifier: String, readAfter revocations: Int) {
        guard staleness > 0 else { return }
        state.withLock { state in
            guard state.revocations == revocations else { return }
            // Full: start again. Once per `capacity` new identifiers, not a scan on every insert
            // (a stranger presenting fresh identifiers fills it); a dropped entry is read again.
            if state.entries.count >= Self.capacity, state.entries[identifier] == nil {
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries[identifier] = entry
        }
    }

    /// Drops what is kept of `identifier`, after it was revoked through this store.
    func forget(_ identifier: String) {
        state.withLock { state in
            state.entries[identifier] = nil
            state.revocations += 1
        }
    }
}
