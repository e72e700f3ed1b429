import OrderPackage
import WalletPrimitives

/// The rule every repository applies, inside its write transaction, when a verified order
/// arrives (docs/financekit-semantics.md §6, docs/order-format.md §6). Kept apart from storage so that every
/// backend decides identically.
public enum OrderVersionPolicy {
    /// What to do with an incoming version.
    public enum Decision: Sendable, Hashable {
        /// Nothing stored yet: insert. → `.added`
        case insert
        /// The stored version is older: keep it in the history and store the new one. → `.added`
        case replace
        /// The same version, byte for byte: nothing to write. → `.added`
        case unchanged
        /// The stored version is newer: nothing to write. → `.newerExisting`
        case keepNewer
        /// Same `updatedAt`, different bytes. → throws `store.conflictingVersion`
        case conflict
        /// Another team signed the update. → throws `store.signerChanged`
        case signerChanged(storedTeam: String)
        /// The candidate was made from a version that is no longer current
        /// (``OrderCandidate/basis``): nothing to write; authoring makes it again from the
        /// current one. → `.newerExisting`
        case basisChanged
    }

    /// What the policy needs to know of the stored version.
    public struct StoredVersion: Sendable, Hashable {
        public var updatedAt: RFC3339Timestamp
        public var teamIdentifier: String
        public var archiveSHA256: String

        public init(updatedAt: RFC3339Timestamp, teamIdentifier: String, archiveSHA256: String) {
            self.updatedAt = updatedAt
            self.teamIdentifier = teamIdentifier
            self.archiveSHA256 = archiveSHA256
        }
    }

    /// `updatedAt` values compare exactly (to the nanosecond, whatever offset they were written
    /// with). The signer check comes first: an order cannot change teams, whatever its date.
    public static func decide(stored: StoredVersion?, incoming: OrderCandidate) -> Decision {
        if let basis = incoming.basis, basis != stored.map({ .version(archiveSHA256: $0.archiveSHA256) }) ?? .noVersion {
            return .basisChanged
        }
        guard let stored else { return .insert }
        if stored.teamIdentifier != incoming.teamIdentifier { return .signerChanged(storedTeam: stored.teamIdentifier) }
        if stored.updatedAt < incoming.updatedAt { return .replace }
        if stored.updatedAt > incoming.updatedAt { return .keepNewer }
        return stored.archiveSHA256 == incoming.archiveSHA256 ? .unchanged : .conflict
    }
}
