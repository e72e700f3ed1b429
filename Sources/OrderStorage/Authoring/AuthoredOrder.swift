import Foundation
import OrderPackage
import WalletPrimitives

/// A version the service authored, signed and saved.
public struct AuthoredOrder: Sendable {
    public let identifier: FullyQualifiedOrderIdentifier
    /// The version's `updatedAt`, chosen by the service.
    public let updatedAt: RFC3339Timestamp
    /// The signed archive.
    public let archive: Data
    /// The SHA-256 of ``archive``, the version's identity in the store.
    public let archiveSHA256: String
    /// `.added`, or `.cancelled` when a consent prompt of the store declined.
    public var result: SaveOrderResult
    /// Whether no version of the order was stored when the request read it: its first version.
    public let isFirstVersion: Bool
    /// What Apple Pay's payment authorization result takes to attach the order to a payment.
    public let orderDetails: OrderDetails
    /// The verification report of the signed archive (signer, warnings).
    public let report: VerificationReport

    public init(
        identifier: FullyQualifiedOrderIdentifier, updatedAt: RFC3339Timestamp, archive: Data, archiveSHA256: String,
        result: SaveOrderResult, isFirstVersion: Bool, orderDetails: OrderDetails, report: VerificationReport
    ) {
        self.identifier = identifier
        self.updatedAt = updatedAt
        self.archive = archive
        self.archiveSHA256 = archiveSHA256
        self.result = result
        self.isFirstVersion = isFirstVersion
        self.orderDetails = orderDetails
        self.report = report
    }
}

/// Apple Pay's order details — `PKPaymentOrderDetails` in PassKit, `orderDetails` of Apple Pay JS's
/// `ApplePayPaymentAuthorizationResult` — for the version just authored.
public struct OrderDetails: Sendable, Hashable, Codable {
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    /// Always present: authoring without one is refused (`authoring.publicURLRequired`).
    public var webServiceURL: String
    public var authenticationToken: String

    public init(orderTypeIdentifier: String, orderIdentifier: String, webServiceURL: String, authenticationToken: String) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.webServiceURL = webServiceURL
        self.authenticationToken = authenticationToken
    }
}
