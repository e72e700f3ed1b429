import Foundation
import OrderPackage
import OrderStorage

/// What authoring answers (`orders author --json`, the merchant API's `PUT`/`PATCH …/content`):
/// the new version and Apple Pay's `orderDetails`.
public struct WireAuthoredOrder: Codable, Sendable, Hashable {
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    public var updatedAt: String
    public var archiveSHA256: String
    /// `added` (`cancelled` when a store's consent prompt declined).
    public var result: String
    public var firstVersion: Bool
    /// The customer page's signed path (the service only).
    @Nullable public var customerPage: String?
    public var orderDetails: WireOrderDetails

    public init(_ authored: AuthoredOrder, customerPage: String? = nil) {
        orderTypeIdentifier = authored.identifier.orderTypeIdentifier
        orderIdentifier = authored.identifier.orderIdentifier
        updatedAt = authored.updatedAt.text
        archiveSHA256 = authored.archiveSHA256
        result = authored.result.rawValue
        firstVersion = authored.isFirstVersion
        self.customerPage = customerPage
        orderDetails = WireOrderDetails(authored.orderDetails)
    }
}

/// Apple Pay's order details: every member present, as `PKPaymentOrderDetails` requires.
public struct WireOrderDetails: Codable, Sendable, Hashable {
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    public var webServiceURL: String
    public var authenticationToken: String

    public init(_ details: OrderDetails) {
        orderTypeIdentifier = details.orderTypeIdentifier
        orderIdentifier = details.orderIdentifier
        webServiceURL = details.webServiceURL
        authenticationToken = details.authenticationToken
    }
}
