import Foundation

extension Order {
    /// An item of the order, a fulfillment or a return.
    public struct LineItem: Sendable, Hashable, Codable {
        public var quantity: Decimal
        public var title: String
        /// An image file in the package.
        public var image: String?
        public var price: CurrencyAmount?
        public var subtitle: String?
        public var gtin: String?
        public var sku: String?

        public init(
            quantity: Decimal, title: String, image: String? = nil, price: CurrencyAmount? = nil,
            subtitle: String? = nil, gtin: String? = nil, sku: String? = nil
        ) {
            self.quantity = quantity
            self.title = title
            self.image = image
            self.price = price
            self.subtitle = subtitle
            self.gtin = gtin
            self.sku = sku
        }
    }
}
