import OrderPackage

/// A verified archive, ready for ``OrderStore/saveOrder(_:)``: what ``OrderStore/prepareOrder(signedArchive:)``
/// returns for a valid archive.
public struct PreparedOrder: Sendable {
    public let candidate: OrderCandidate
    /// The decoded order.json.
    public let order: Order
    /// The full verification report (identity, signer, warnings).
    public let report: VerificationReport

    public var identifier: FullyQualifiedOrderIdentifier { candidate.identifier }
}
