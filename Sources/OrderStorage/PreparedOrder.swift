import Foundation
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

    /// The order `report` found valid in `archive` (an upload's verification, or a package authoring
    /// signed and checked from its entries); nil when the report is not valid.
    package init?(archive: Data, report: VerificationReport) {
        guard let candidate = OrderCandidate(archive: archive, report: report), let order = report.order else { return nil }
        self.init(candidate: candidate, order: order, report: report)
    }

    init(candidate: OrderCandidate, order: Order, report: VerificationReport) {
        self.candidate = candidate
        self.order = order
        self.report = report
    }

    /// The same order, to be stored as uploaded by the merchant API key `keyIdentifier`
    /// (``StoredOrder/uploadedBy``).
    public func uploaded(by keyIdentifier: String) -> PreparedOrder {
        var candidate = candidate
        candidate.uploadedBy = keyIdentifier
        return PreparedOrder(candidate: candidate, order: order, report: report)
    }

    /// The same order, saved only while `basis` is still the current version (authoring).
    public func madeFrom(_ basis: VersionBasis) -> PreparedOrder {
        var candidate = candidate
        candidate.basis = basis
        return PreparedOrder(candidate: candidate, order: order, report: report)
    }

    /// The same order, made by the tracking event `event`: its save keeps the event with the
    /// version, in the same transaction, and fails with `OrderStoreError.eventAlreadyApplied`
    /// when the event made a version of the order already.
    public func applying(_ event: AppliedTrackingEvent) -> PreparedOrder {
        var candidate = candidate
        candidate.trackingEvent = event
        return PreparedOrder(candidate: candidate, order: order, report: report)
    }

    /// The same order, whose save also keeps `receipt` — in the same transaction, refused with
    /// `OrderStoreError.requestAlreadyAnswered` when the caller's key already has one.
    public func answered(with receipt: RequestReceipt) -> PreparedOrder {
        var candidate = candidate
        candidate.receipt = receipt
        return PreparedOrder(candidate: candidate, order: order, report: report)
    }
}

/// What ``OrderStore/prepareOrder(signedArchive:)`` found: an order ready to save, or the
/// verification report of one that cannot be saved.
public enum OrderPreparation: Sendable {
    case valid(PreparedOrder)
    case invalid(VerificationReport)

    /// The report either way.
    public var report: VerificationReport {
        switch self {
        case .valid(let prepared): prepared.report
        case .invalid(let report): report
        }
    }
}
