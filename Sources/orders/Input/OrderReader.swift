import Foundation
import WalletOrders

/// The stored orders a command acts on: every order for the operator (``OrderStore``), or only
/// the order types a client is entitled to when one is given (`--client`, `ORDERS_CLIENT`,
/// ``MerchantOrders``) — for every command, so that `list`, `show` or `export` never reveal what
/// `check` calls `notFound`. Both stores already have these methods.
protocol OrderReader: Sendable {
    func orders(matching query: OrderQuery) async throws -> [StoredOrder]
    func countOrders(matching query: OrderQuery) async throws -> Int
    func decodedOrder(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Order?
    func archive(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Data?
    func history(_ identifier: FullyQualifiedOrderIdentifier) async throws -> [StoredOrder]
    func removeOrder(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Bool
}

extension OrderStore: OrderReader {}
extension MerchantOrders: OrderReader {}

extension StoreOptions {
    /// The orders as `client` (or, without one, the operator) sees them; each store checks that
    /// orders are usable itself.
    func orderReader(client: ClientOptions, writes: Bool = false) async throws -> any OrderReader {
        let wallet = try await wallet(writes: writes)
        if let identifier = try client.optionalIdentifier { return wallet.merchantOrders(for: identifier) }
        return wallet.orders
    }
}
