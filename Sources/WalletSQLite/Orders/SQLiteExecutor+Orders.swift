import GRDB
import OrderStorage
import WalletCore
import WalletPrimitives
import WalletStorage

/// The order repositories (orders, registrations, the push outbox) report every failure as an
/// ``OrderStorage/OrderStoreError``, as their protocols promise.
extension SQLiteExecutor {
    func readOrders<T>(singleStatement: Bool = false, _ body: (Database) throws -> T) throws(OrderStoreError) -> T {
        do { return try read(singleStatement: singleStatement, body) } catch { throw OrderStoreError(backendFailure: error) }
    }

    func writeOrders<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(OrderStoreError) -> T {
        do { return try await write(body) } catch { throw OrderStoreError(backendFailure: error) }
    }

}
