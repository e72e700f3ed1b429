import WalletPrimitives

extension Order {
    /// An entry of `fulfillments`, told apart by its `fulfillmentType` key.
    public enum Fulfillment: Sendable, Hashable, Codable {
        case shipping(ShippingFulfillment)
        case pickup(PickupFulfillment)

        private enum CodingKeys: String, CodingKey {
            case fulfillmentType
        }

        public var fulfillmentIdentifier: String {
            switch self {
            case .shipping(let shipping): shipping.fulfillmentIdentifier
            case .pickup(let pickup): pickup.fulfillmentIdentifier
            }
        }

        /// The status's raw value, e.g. `onTheWay` or `readyForPickup`.
        public var statusName: String {
            switch self {
            case .shipping(let shipping): shipping.status.rawValue
            case .pickup(let pickup): pickup.status.rawValue
            }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .fulfillmentType) {
            case "shipping": self = .shipping(try ShippingFulfillment(from: decoder))
            case "pickup": self = .pickup(try PickupFulfillment(from: decoder))
            case let other:
                throw DecodingError.dataCorruptedError(
                    forKey: .fulfillmentType, in: container,
                    debugDescription: "unknown fulfillmentType \(MessageText.quote(other))")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .shipping(let shipping):
                try container.encode("shipping", forKey: .fulfillmentType)
                try shipping.encode(to: encoder)
            case .pickup(let pickup):
                try container.encode("pickup", forKey: .fulfillmentType)
                try pickup.encode(to: encoder)
            }
        }
    }
}
