import OrderStorage
import WalletCore

/// Runs an order repository's work: its own refusals (``OrderStorage/OrderStoreError``) as they
/// are, every other failure as the library's one storage error, ``WalletCore/StorageError``.
func reportingFailures<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as OrderStoreError {
        throw error
    } catch {
        throw StorageError(backendFailure: error)
    }
}

/// Runs a repository's work, reporting every failure as the access core's protocols promise:
/// ``WalletCore/StorageError``.
func reportingStorageErrors<T>(_ body: () async throws -> T) async throws(StorageError) -> T {
    do { return try await body() } catch { throw StorageError(backendFailure: error) }
}
