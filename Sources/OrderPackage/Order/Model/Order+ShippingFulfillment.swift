import Foundation
import WalletPrimitives

extension Order {
    /// A fulfillment with `fulfillmentType` `shipping`: goods sent to the customer.
    public struct ShippingFulfillment: Sendable, Hashable, Codable {
        public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
            case open, processing, onTheWay, outForDelivery, delivered, shipped, issue, cancelled
        }

        public enum ShippingType: String, Sendable, Hashable, Codable, CaseIterable {
            case shipping, delivery
        }

        public var fulfillmentIdentifier: String
        public var status: Status
        public var carrier: String?
        public var trackingNumber: String?
        public var trackingURL: URL?
        public var shippedAt: RFC3339Timestamp?
        public var deliveredAt: RFC3339Timestamp?
        public var estimatedDeliveryAt: RFC3339Timestamp?
        public var estimatedDeliveryWindowDuration: ISO8601Duration?
        public var shippingType: ShippingType?
        public var lineItems: [LineItem]?
        public var notes: String?
        public var recipient: Recipient?
        public var statusDescription: String?

        public init(
            fulfillmentIdentifier: String, status: Status, carrier: String? = nil, trackingNumber: String? = nil,
            trackingURL: URL? = nil, shippedAt: RFC3339Timestamp? = nil, deliveredAt: RFC3339Timestamp? = nil,
            estimatedDeliveryAt: RFC3339Timestamp? = nil, estimatedDeliveryWindowDuration: ISO8601Duration? = nil,
            shippingType: ShippingType? = nil, lineItems: [LineItem]? = nil, notes: String? = nil,
            recipient: Recipient? = nil, statusDescription: String? = nil
        ) {
            self.fulfillmentIdentifier = fulfillmentIdentifier
            self.status = status
            self.carrier = carrier
            self.trackingNumber = trackingNumber
            self.trackingURL = trackingURL
            self.shippedAt = shippedAt
            self.deliveredAt = deliveredAt
            self.estimatedDeliveryAt = estimatedDeliveryAt
            self.estimatedDeliveryWindowDuration = estimatedDeliveryWindowDuration
            self.shippingType = shippingType
            self.lineItems = lineItems
            self.notes = notes
            self.recipient = recipient
            self.statusDescription = statusDescription
        }
    }

    /// Who receives a shipment; every field is optional.
    public struct Recipient: Sendable, Hashable, Codable {
        public var address: Address?
        public var familyName: String?
        public var givenName: String?
        public var organizationName: String?

        public init(address: Address? = nil, familyName: String? = nil, givenName: String? = nil, organizationName: String? = nil)
        {
            self.address = address
            self.familyName = familyName
            self.givenName = givenName
            self.organizationName = organizationName
        }
    }
}
