import OrderStorage

extension OrderRepository {
    /// The order of ``OrderStorage/OrderRepository/lookUpServedOrder(_:includingArchive:)``,
    /// restricted or not: what the tests compare.
    public func servedOrder(
        _ identifier: FullyQualifiedOrderIdentifier, includingArchive: Bool = true
    ) async throws(OrderStoreError) -> ServedOrder? {
        try await lookUpServedOrder(identifier, includingArchive: includingArchive).order
    }
}
