import Foundation
import WalletCore
import WalletPrimitives

/// Where verified orders live. The storage layer implements it once for every SQL backend
/// (`WalletStorage`'s `SQLOrderRepository`), applying ``OrderVersionPolicy`` to what is stored,
/// so that every backend decides identically.
public protocol OrderRepository: Sendable {
    /// In one transaction: reads the stored version, applies ``OrderVersionPolicy``, and writes
    /// when the decision is `.insert` (a new row) or `.replace` (the old version moves to the
    /// history). Any other decision writes nothing. `time` becomes the version's `addedAt` (and the
    /// replaced version's `replacedAt`).
    func save(_ candidate: OrderCandidate, at time: Date) async throws -> OrderVersionPolicy.Decision

    /// ``save(_:at:)`` for many candidates, in order; backends may use one transaction for all.
    func save(
        contentsOf candidates: [OrderCandidate], at time: Date
    ) async throws -> [OrderVersionPolicy.Decision]

    /// The receipt `caller` got for `idempotencyKey`, if it was made at `notBefore` or later.
    func receipt(caller: String, idempotencyKey: String, notBefore: Date) async throws -> RequestReceipt?

    /// The current version, if any.
    func currentVersion(of identifier: FullyQualifiedOrderIdentifier) async throws -> StoredOrder?

    /// The current version's `updatedAt`, if any: all `containsOrder` compares, read without the
    /// rest of the row (the default reads ``currentVersion(of:)``).
    func currentUpdatedAt(of identifier: FullyQualifiedOrderIdentifier) async throws -> RFC3339Timestamp?

    /// The current version's archive, byte for byte as saved.
    func archive(of identifier: FullyQualifiedOrderIdentifier) async throws -> Data?

    /// The current version as the Orders web service serves it — digest, `updatedAt`, the
    /// version's `authenticationToken` and, when `includingArchive`, the archive — with the
    /// restriction of orders, all in one snapshot.
    func lookUpServedOrder(
        _ identifier: FullyQualifiedOrderIdentifier, includingArchive: Bool
    ) async throws -> ServedOrderLookup

    /// The current version's facts with the restriction of orders and whether `client` is
    /// entitled to the order's type, in one snapshot: what a client reads of an order it asks for
    /// by name (the merchant API's `GET`), which otherwise takes an access read and an order read.
    func lookUpEntitledOrder(
        _ identifier: FullyQualifiedOrderIdentifier, for client: ClientIdentifier
    ) async throws -> (access: OrderTypeAccess, order: StoredOrder?)

    /// The current version's order.json, byte for byte as in its archive.
    func orderJSON(of identifier: FullyQualifiedOrderIdentifier) async throws -> Data?

    /// The order.json of the version, current or replaced, whose archive has this SHA-256.
    func orderJSON(of identifier: FullyQualifiedOrderIdentifier, archiveSHA256: String) async throws -> Data?

    /// Current versions matching `query`, most recently updated first.
    func orders(matching query: OrderQuery) async throws -> [StoredOrder]

    /// How many current versions match `query`, its limit and offset aside.
    func countOrders(matching query: OrderQuery) async throws -> Int

    /// Every version of one order, oldest first; the last is the current one (`replacedAt == nil`).
    func history(of identifier: FullyQualifiedOrderIdentifier) async throws -> [StoredOrder]

    /// Deletes the order and its history. Returns whether it existed.
    func remove(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Bool
}

extension OrderRepository {
    public func currentUpdatedAt(
        of identifier: FullyQualifiedOrderIdentifier
    ) async throws -> RFC3339Timestamp? {
        try await currentVersion(of: identifier)?.updatedAt
    }

    /// One ``save(_:at:)`` after another.
    public func save(
        contentsOf candidates: [OrderCandidate], at time: Date
    ) async throws -> [OrderVersionPolicy.Decision] {
        var decisions: [OrderVersionPolicy.Decision] = []
        for candidate in candidates { decisions.append(try await save(candidate, at: time)) }
        return decisions
    }
}
