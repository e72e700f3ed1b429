import Foundation
import OrderPackage
import WalletPrimitives

/// A verified order ready to be stored: the archive, its order.json, and the facts the store
/// indexes. ``OrderStore`` builds one from a valid ``VerificationReport``; a repository stores it
/// without verifying again.
public struct OrderCandidate: Sendable, Hashable {
    public var identifier: FullyQualifiedOrderIdentifier
    public var updatedAt: RFC3339Timestamp
    public var createdAt: RFC3339Timestamp
    public var status: String
    public var merchantIdentifier: String
    public var merchantDisplayName: String
    public var teamIdentifier: String
    public var archive: Data
    public var archiveSHA256: String
    public var orderJSON: Data
    /// order.json's `authenticationToken`, against which the Orders web service checks device
    /// requests for this version; nil when the order has no web service.
    public var authenticationToken: String?
    /// The identifier of the merchant API key uploading it, which the store keeps with the
    /// version (``StoredOrder/uploadedBy``); nil when it comes another way.
    public var uploadedBy: String?
    /// The answer to keep under the request's `Idempotency-Key`, written in the transaction that
    /// saves this version (nil: none).
    public var receipt: RequestReceipt?
    /// The version this one was made from (authoring): saved only while that version is still
    /// the current one. Nil: decided on whatever is stored, as an upload is.
    public var basis: VersionBasis?
    /// The parcels its shipping fulfillments name (``OrderPackage/TrackingKey``, normalized): the
    /// store's tracking-number index, kept in the version's transaction.
    public var trackingKeys: [String] = []
    /// The tracking event this version applies, kept with it in its transaction; a second
    /// version from the same event fails the save (`OrderStoreError.eventAlreadyApplied`).
    public var trackingEvent: AppliedTrackingEvent?

    public init(
        identifier: FullyQualifiedOrderIdentifier, updatedAt: RFC3339Timestamp, createdAt: RFC3339Timestamp, status: String,
        merchantIdentifier: String, merchantDisplayName: String, teamIdentifier: String, archive: Data,
        archiveSHA256: String, orderJSON: Data, authenticationToken: String? = nil, uploadedBy: String? = nil
    ) {
        self.identifier = identifier
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.status = status
        self.merchantIdentifier = merchantIdentifier
        self.merchantDisplayName = merchantDisplayName
        self.teamIdentifier = teamIdentifier
        self.archive = archive
        self.archiveSHA256 = archiveSHA256
        self.orderJSON = orderJSON
        self.authenticationToken = authenticationToken
        self.uploadedBy = uploadedBy
    }

    /// The candidate for a *valid* report of `archive`; nil when the report lacks what a stored
    /// order needs (it cannot, when valid).
    public init?(archive: Data, report: VerificationReport) {
        guard report.isValid, let order = report.order, let orderJSON = report.orderJSON,
            let teamIdentifier = report.teamIdentifier
        else { return nil }
        self.init(
            identifier: FullyQualifiedOrderIdentifier(
                orderTypeIdentifier: order.orderTypeIdentifier, orderIdentifier: order.orderIdentifier),
            updatedAt: order.updatedAt, createdAt: order.createdAt, status: order.status.rawValue,
            merchantIdentifier: order.merchant.merchantIdentifier, merchantDisplayName: order.merchant.displayName,
            teamIdentifier: teamIdentifier, archive: archive, archiveSHA256: report.archiveSHA256, orderJSON: orderJSON,
            authenticationToken: order.authenticationToken)
        trackingKeys = order.trackingKeys.map(\.normalized)
    }
}
