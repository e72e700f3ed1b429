import Foundation
import WalletPrimitives

/// The contents of `order.json`, as validated by ``OrderValidator``.
///
/// Field names are Apple's JSON keys, so the model also decodes and encodes `order.json` with
/// `JSONDecoder`/`JSONEncoder`. Dates keep their RFC 3339 text (``RFC3339Timestamp``) and amounts
/// are exact `Decimal`s.
///
/// ```swift
/// let report = verifier.verify(archive)
/// if let order = report.order {
///     print(order.merchant.displayName, order.status, order.payment?.total.amount ?? 0)
/// }
/// ```
public struct Order: Sendable, Hashable, Codable {
    public var schemaVersion: Int
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    public var orderType: OrderType
    public var orderManagementURL: URL
    public var createdAt: RFC3339Timestamp
    public var updatedAt: RFC3339Timestamp
    public var status: Status
    public var merchant: Merchant
    public var authenticationToken: String?
    public var webServiceURL: URL?
    public var associatedApplications: [Application]?
    public var associatedApplicationIdentifiers: [String]?
    public var barcode: Barcode?
    public var customer: Customer?
    public var payment: Payment?
    public var changeNotifications: ChangeNotifications?
    public var fulfillments: [Fulfillment]?
    public var lineItems: [LineItem]?
    public var orderNumber: String?
    public var statusDescription: String?
    public var orderProvider: OrderProvider?
    public var returnInfo: ReturnInfo?
    public var returns: [Return]?

    public init(
        schemaVersion: Int = 1,
        orderTypeIdentifier: String,
        orderIdentifier: String,
        orderType: OrderType = .ecommerce,
        orderManagementURL: URL,
        createdAt: RFC3339Timestamp,
        updatedAt: RFC3339Timestamp,
        status: Status,
        merchant: Merchant,
        authenticationToken: String? = nil,
        webServiceURL: URL? = nil,
        associatedApplications: [Application]? = nil,
        associatedApplicationIdentifiers: [String]? = nil,
        barcode: Barcode? = nil,
        customer: Customer? = nil,
        payment: Payment? = nil,
        changeNotifications: ChangeNotifications? = nil,
        fulfillments: [Fulfillment]? = nil,
        lineItems: [LineItem]? = nil,
        orderNumber: String? = nil,
        statusDescription: String? = nil,
        orderProvider: OrderProvider? = nil,
        returnInfo: ReturnInfo? = nil,
        returns: [Return]? = nil
    ) {
        self.schemaVersion = schemaVersion
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.orderType = orderType
        self.orderManagementURL = orderManagementURL
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.status = status
        self.merchant = merchant
        self.authenticationToken = authenticationToken
        self.webServiceURL = webServiceURL
        self.associatedApplications = associatedApplications
        self.associatedApplicationIdentifiers = associatedApplicationIdentifiers
        self.barcode = barcode
        self.customer = customer
        self.payment = payment
        self.changeNotifications = changeNotifications
        self.fulfillments = fulfillments
        self.lineItems = lineItems
        self.orderNumber = orderNumber
        self.statusDescription = statusDescription
        self.orderProvider = orderProvider
        self.returnInfo = returnInfo
        self.returns = returns
    }
}

extension Order {
    /// `orderType`: the kind of order. Apple defines one.
    public enum OrderType: String, Sendable, Hashable, Codable, CaseIterable {
        case ecommerce
    }

    /// `status`: the order's overall state.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        case open, completed, cancelled
    }

    /// `changeNotifications`: whether Wallet notifies about changes (default `enabled`).
    public enum ChangeNotifications: String, Sendable, Hashable, Codable, CaseIterable {
        case enabled, disabledIfAppInstalled
    }
}
