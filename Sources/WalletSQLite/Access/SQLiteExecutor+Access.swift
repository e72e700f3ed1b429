import GRDB
import WalletCore
import WalletPrimitives

/// The access-core repositories (access, API keys) report every failure as a
/// ``WalletCore/StorageError``, as their protocols promise.
extension SQLiteExecutor {
    func readAccess<T>(singleStatement: Bool = false, _ body: (Database) throws -> T) throws(StorageError) -> T {
        do { return try read(singleStatement: singleStatement, body) } catch { throw Self.accessStorageError(error) }
    }

    func writeAccess<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do { return try await write(body) } catch { throw Self.accessStorageError(error) }
    }

    private static func accessStorageError(_ error: any Error) -> StorageError {
        error as? StorageError ?? StorageError(reason: (error as? any WalletError)?.message ?? "\(error)")
    }
}
