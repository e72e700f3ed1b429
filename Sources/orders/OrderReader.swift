import Foundation
import WalletOrders

/// The stored orders a command acts on: every order for the operator, or only the order types a
/// client is entitled to when one is given (`--client`, `ORDERS_CLIENT`) — for every command, so
/// that `list`, `show` or `export` never reveal what `check` calls `notFound`.
enum OrderReader {
    case operatorView(OrderStore)
    case clientView(FinanceStore)

    func orders(matching query: OrderQuery) async throws -> [StoredOrder] {
        switch self {
        case .operatorView(let store): try await store.orders(matching: query)
        case .clientView(let store): try await store.orders(matching: query)
        }
    }

    func decodedOrder(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Order? {
        switch self {
        case .operatorView(let store): try await store.decodedOrder(identifier)
        case .clientView(let store): try await store.decodedOrder(identifier)
        }
    }

    func archive(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Data? {
        switch self {
        case .operatorView(let store): try await store.archive(identifier)
        case .clientView(let store): try await store.archive(identifier)
        }
    }

    func history(_ identifier: FullyQualifiedOrderIdentifier) async throws -> [StoredOrder] {
        switch self {
        case .operatorView(let store): try await store.history(identifier)
        case .clientView(let store): try await store.history(identifier)
        }
    }

    func removeOrder(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Bool {
        switch self {
        case .operatorView(let store): try await store.removeOrder(identifier)
        case .clientView(let store): try await store.removeOrder(identifier)
        }
    }
}

extension StoreOptions {
    /// The orders as `client` (or, without one, the operator) sees them, once orders are usable.
    func orderReader(client: ClientOptions, for operation: String) async throws -> OrderReader {
        let wallet = try wallet()
        if let identifier = try client.optionalIdentifier { return .clientView(wallet.financeStore(for: identifier)) }
        try await wallet.control.checkUsable(.orders, for: operation)
        return .operatorView(wallet.orders)
    }
}
