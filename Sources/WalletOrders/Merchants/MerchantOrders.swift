import Foundation
import OrderPackage
import OrderStorage
import WalletCore
import WalletPrimitives

/// A merchant's order operations: saving, reading, listing, removing and authoring orders of the
/// order types its credential (an API key's client) is entitled to — every other type is refused
/// (`FinanceAccessError.notEntitled`) or, for a read, not there. The merchant API's one way into
/// the store; `FinanceStore`'s order methods are these.
///
/// ```swift
/// let merchant = wallet.merchantOrders(for: key.client)
/// let stored = try await merchant.order(identifier)      // nil: not stored, or not its type
/// let authored = try await merchant.authorOrder(identifier, content: .mergePatch(patch), webService: policy)
/// ```
public struct MerchantOrders: Sendable {
    /// The client the credential acts for; its entitlements decide the order types.
    public let client: ClientIdentifier
    let wallet: WalletStore

    init(client: ClientIdentifier, wallet: WalletStore) {
        self.client = client
        self.wallet = wallet
    }

    /// Verifies and stores an order of a type the client is entitled to (see
    /// `saveOrder(signedArchive:)`); another type is refused with
    /// `notEntitled(_:orderTypeIdentifier:)`.
    public func saveOrder(signedArchive: Data) async throws -> SaveOrderResult {
        try await wallet.control.checkUsable(.orders, for: "saveOrder")
        switch prepareOrder(signedArchive: signedArchive) {
        case .valid(let prepared): return try await saveOrder(prepared)
        case .invalid(let report): throw OrderStoreError.invalidArchive(report)
        }
    }

    /// Verification alone (see `OrderStore.prepareOrder(signedArchive:)`), for verifying many
    /// archives in parallel before saving the valid ones in order with ``saveOrder(_:)``.
    public func prepareOrder(signedArchive: Data) -> OrderPreparation {
        wallet.clientOrders.prepareOrder(signedArchive: signedArchive)
    }

    /// The second half of ``saveOrder(signedArchive:)``: entitlement, consent, the transaction.
    public func saveOrder(_ prepared: PreparedOrder) async throws -> SaveOrderResult {
        try await saveOrderWithDecision(prepared).result
    }

    /// ``saveOrder(_:)`` with what the transaction decided (see
    /// `OrderStore.saveOrderWithDecision(_:)`).
    public func saveOrderWithDecision(
        _ prepared: PreparedOrder
    ) async throws -> (result: SaveOrderResult, decision: OrderVersionPolicy.Decision?) {
        // Restriction and entitlement in one read (the merchant API's every PUT).
        guard try await mayContain(prepared.identifier, for: "saveOrder") else {
            throw FinanceAccessError.notEntitled(client, orderTypeIdentifier: prepared.identifier.orderTypeIdentifier)
        }
        return try await wallet.clientOrders.saveOrderWithDecision(prepared)
    }

    /// The client's page of stored orders: `orders(matching:)` limited to
    /// the order types it is entitled to.
    public func orders(matching query: OrderQuery = OrderQuery()) async throws -> [StoredOrder] {
        try await wallet.clientOrders.orders(matching: try await entitledQuery(query, for: "orders"))
    }

    /// How many of the client's stored orders match `query`, its limit and offset aside.
    public func countOrders(matching query: OrderQuery = OrderQuery()) async throws -> Int {
        try await wallet.clientOrders.countOrders(matching: try await entitledQuery(query, for: "countOrders"))
    }

    /// `query` narrowed to the order types the client is entitled to.
    private func entitledQuery(_ query: OrderQuery, for operation: String) async throws -> OrderQuery {
        try await wallet.control.checkUsable(.orders, for: operation)
        let entitled = try await wallet.access.access(for: client).orderTypeIdentifiers
        var query = query
        query.orderTypeIdentifiers = query.orderTypeIdentifiers.map { $0.intersection(entitled) } ?? entitled
        return query
    }

    /// The stored order, or nil when it is not stored or of a type the client is not entitled to.
    public func order(_ identifier: FullyQualifiedOrderIdentifier) async throws -> StoredOrder? {
        try wallet.control.checkAvailable(.orders, for: #function)
        // The restriction, the entitlement and the order in one read (the merchant API's GET).
        let (access, order) = try await wallet.backend.orders.lookUpEntitledOrder(identifier, for: client)
        try wallet.control.checkNotRestricted(.orders, restrictedSince: access.restrictedSince)
        return access.isEntitled ? order : nil
    }

    /// The decoded `order.json` of the current version, under the same rule as ``order(_:)``.
    public func decodedOrder(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Order? {
        guard try await mayContain(identifier) else { return nil }
        return try await wallet.clientOrders.decodedOrder(identifier)
    }

    /// The stored archive, byte for byte, under the same rule as ``order(_:)``.
    public func archive(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Data? {
        guard try await mayContain(identifier) else { return nil }
        return try await wallet.clientOrders.archive(identifier)
    }

    /// Every version, oldest first; empty under the same rule as ``order(_:)``.
    public func history(_ identifier: FullyQualifiedOrderIdentifier) async throws -> [StoredOrder] {
        guard try await mayContain(identifier) else { return [] }
        return try await wallet.clientOrders.history(identifier)
    }

    /// Removes the order and its history when the client is entitled to its type; false when
    /// nothing was removed.
    public func removeOrder(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Bool {
        guard try await mayContain(identifier) else { return false }
        return try await wallet.clientOrders.removeOrder(identifier)
    }

    /// Checks orders are usable; false when the client is not entitled to the order type, which
    /// FinanceKit reports as `.notFound` rather than an error.
    func mayContain(_ identifier: FullyQualifiedOrderIdentifier, for operation: String = #function) async throws -> Bool {
        try wallet.control.checkAvailable(.orders, for: operation)
        let access = try await wallet.access.orderTypeAccess(of: client, to: identifier.orderTypeIdentifier)
        try wallet.control.checkNotRestricted(.orders, restrictedSince: access.restrictedSince)
        return access.isEntitled
    }
}

extension WalletStore {
    /// The order operations of `client` (a merchant API key's): the order types it is entitled to.
    public func merchantOrders(for client: ClientIdentifier) -> MerchantOrders {
        MerchantOrders(client: client, wallet: self)
    }
}
