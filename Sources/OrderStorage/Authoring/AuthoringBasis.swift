import Foundation
import WalletCore

/// What authoring reads before it composes a version, read at once
/// (``StorageBackend``-level `authoringBasis`, one statement on the SQL backends): the
/// restriction of orders and the client's entitlement, the current version, the receipt already
/// kept under the request's `Idempotency-Key`, and the type's signing identity. Authoring then
/// composes, signs and checks with no I/O, and saves with a compare on ``current``.
public struct AuthoringBasis: Sendable {
    /// The current version, its archive byte for byte.
    public struct CurrentVersion: Sendable {
        public var order: StoredOrder
        public var archive: Data

        public init(order: StoredOrder, archive: Data) {
            self.order = order
            self.archive = archive
        }
    }

    /// The restriction of orders, and whether the client asked about is entitled to the type
    /// (true when no client was named: the operator).
    public var access: OrderTypeAccess
    public var current: CurrentVersion?
    /// The receipt kept under the request's key within ``RequestReceipt/lifetime``, if one was asked for.
    public var receipt: RequestReceipt?
    /// The type's active signing identity.
    public var identity: StoredSigningIdentity?

    public init(access: OrderTypeAccess, current: CurrentVersion?, receipt: RequestReceipt?, identity: StoredSigningIdentity?) {
        self.access = access
        self.current = current
        self.receipt = receipt
        self.identity = identity
    }

    /// The version a candidate made from this basis must still find current when it is saved.
    public var versionBasis: VersionBasis {
        current.map { .version(archiveSHA256: $0.order.archiveSHA256) } ?? .noVersion
    }
}

/// The receipt an authoring request looks for: the caller's, under its `Idempotency-Key`.
public struct ReceiptKey: Sendable, Hashable {
    /// The merchant API key's identifier.
    public var caller: String
    public var idempotencyKey: String

    public init(caller: String, idempotencyKey: String) {
        self.caller = caller
        self.idempotencyKey = idempotencyKey
    }
}

/// The version a candidate was made from, which must still be current when it is saved: a save
/// that finds another decides ``OrderVersionPolicy/Decision/basisChanged`` and writes nothing.
public enum VersionBasis: Sendable, Hashable {
    /// Made when no version was stored (a first version).
    case noVersion
    /// Made from the version with this archive digest.
    case version(archiveSHA256: String)
}
