import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage

/// The access-core repositories (access, API keys) report every failure as a
/// ``WalletCore/StorageError``, as their protocols promise.
extension PostgresExecutor {
    func readAccess<T: Sendable>(
        consistent: Bool = false, _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(StorageError) -> T {
        do { return try await read(consistent: consistent, body) } catch { throw StorageError(backendFailure: error) }
    }

    func writeAccess<T: Sendable>(
        _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(StorageError) -> T {
        do { return try await write(body) } catch { throw StorageError(backendFailure: error) }
    }

}
