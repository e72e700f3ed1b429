import OrderStorage
import WalletCore

/// Runs a repository's work, reporting every failure as the order repositories' protocols
/// promise: ``OrderStorage/OrderStoreError``.
func reportingOrderStoreErrors<T>(_ body: () async throws -> T) async throws(OrderStoreError) -> T {
    do { return try await body() } catch { throw OrderStoreError(backendFailure: error) }
}

/// Runs a repository's work, reporting every failure as the access core's protocols promise:
/// ``WalletCore/StorageError``.
func reportingStorageErrors<T>(_ body: () async throws -> T) async throws(StorageError) -> T {
    do { return try await body() } catch { throw StorageError(backendFailure: error) }
}
