import OrderPackage
import OrderStorage

/// The answer about one order: `containsOrder`'s result (`orders check`) or whether it was
/// removed (`orders remove`). The key that does not apply is null.
public struct WireOrderAnswer: Codable, Sendable, Hashable {
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    /// `exists`, `newerExists`, `olderExists` or `notFound`.
    public var result: String?
    public var removed: Bool?

    public init(_ identifier: FullyQualifiedOrderIdentifier, result: ContainsOrderResult) {
        orderTypeIdentifier = identifier.orderTypeIdentifier
        orderIdentifier = identifier.orderIdentifier
        self.result = result.rawValue
    }

    public init(_ identifier: FullyQualifiedOrderIdentifier, removed: Bool) {
        orderTypeIdentifier = identifier.orderTypeIdentifier
        orderIdentifier = identifier.orderIdentifier
        self.removed = removed
    }

    private enum CodingKeys: String, CodingKey {
        case orderTypeIdentifier, orderIdentifier, result, removed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(orderTypeIdentifier, forKey: .orderTypeIdentifier)
        try container.encode(orderIdentifier, forKey: .orderIdentifier)
        try container.encode(result, forKey: .result)
        try container.encode(removed, forKey: .removed)
    }
}
