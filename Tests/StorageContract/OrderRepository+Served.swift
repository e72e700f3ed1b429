import Foundation
import OrderStorage

extension OrderRepository {
    /// The order of ``OrderStorage/OrderRepository/lookUpServedOrder(_:includingArchive:)``,
    /// restricted or not: what the tests compare.
    public func servedOrder(
        _ identifier: FullyQualifiedOrderIdentifier, includingArchive: Bool = true
    ) async throws -> ServedOrder? {
        try await lookUpServedOrder(identifier, includingArchive: includingArchive).order
    }
}

extension OrderStore {
    /// ``OrderStorage/OrderStore/prepareOrder(signedArchive:)`` for an archive the test knows is
    /// valid: the prepared order, or the verdict's report as the thrown error.
    public func prepared(signedArchive: Data) throws -> PreparedOrder {
        switch prepareOrder(signedArchive: signedArchive) {
        case .valid(let prepared): return prepared
        case .invalid(let report): throw OrderStoreError.invalidArchive(report)
        }
    }
}
