import WalletPrimitives

extension Order {
    /// A fulfillment with `fulfillmentType` `pickup`: goods collected by the customer.
    public struct PickupFulfillment: Sendable, Hashable, Codable {
        public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
            case open, processing, readyForPickup, pickedUp, issue, cancelled
        }

        public var displayName: String
        public var fulfillmentIdentifier: String
        public var status: Status
        public var address: Address?
        public var barcode: Barcode?
        public var location: Location?
        public var lineItems: [LineItem]?
        public var notes: String?
        public var pickupAt: RFC3339Timestamp?
        public var pickedUpAt: RFC3339Timestamp?
        public var pickupWindowDuration: ISO8601Duration?
        public var statusDescription: String?

        public init(
            displayName: String, fulfillmentIdentifier: String, status: Status, address: Address? = nil,
            barcode: Barcode? = nil, location: Location? = nil, lineItems: [LineItem]? = nil, notes: String? = nil,
            pickupAt: RFC3339Timestamp? = nil, pickedUpAt: RFC3339Timestamp? = nil,
            pickupWindowDuration: ISO8601Duration? = nil, statusDescription: String? = nil
        ) {
            self.displayName = displayName
            self.fulfillmentIdentifier = fulfillmentIdentifier
            self.status = status
            self.address = address
            self.barcode = barcode
            self.location = location
            self.lineItems = lineItems
            self.notes = notes
            self.pickupAt = pickupAt
            self.pickedUpAt = pickedUpAt
            self.pickupWindowDuration = pickupWindowDuration
            self.statusDescription = statusDescription
        }
    }
}
