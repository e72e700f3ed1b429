import OrderStorage
import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage

/// The order repositories (orders, registrations, the push outbox) report every failure as an
/// ``OrderStorage/OrderStoreError``, as their protocols promise.
extension PostgresExecutor {
    func readOrders<T: Sendable>(
        consistent: Bool = false, _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(OrderStoreError) -> T {
        do { return try await read(consistent: consistent, body) } catch { throw OrderStoreError(backendFailure: error) }
    }

    func statementsOrders<T: Sendable>(
        _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(OrderStoreError) -> T {
        do { return try await statements(body) } catch { throw OrderStoreError(backendFailure: error) }
    }

    func writeOrders<T: Sendable>(
        _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(OrderStoreError) -> T {
        do { return try await write(body) } catch { throw OrderStoreError(backendFailure: error) }
    }

}
