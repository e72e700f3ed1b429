import GRDB
import WalletCore
import WalletPrimitives
import WalletStorage

/// The access-core repositories (access, API keys) report every failure as a
/// ``WalletCore/StorageError``, as their protocols promise.
extension SQLiteExecutor {
    func readAccess<T>(singleStatement: Bool = false, _ body: (Database) throws -> T) throws(StorageError) -> T {
        do { return try read(singleStatement: singleStatement, body) } catch { throw StorageError(backendFailure: error) }
    }

    func writeAccess<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do { return try await write(body) } catch { throw StorageError(backendFailure: error) }
    }

}
