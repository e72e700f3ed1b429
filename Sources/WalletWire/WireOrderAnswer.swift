import OrderPackage
import OrderStorage

/// The answer about one order: `containsOrder`'s result (`orders check`) or whether it was
/// removed (`orders remove`). The key that does not apply is null.
public struct WireOrderAnswer: Codable, Sendable, Hashable {
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    /// `exists`, `newerExists`, `olderExists` or `notFound`.
    @Nullable public var result: String?
    @Nullable public var removed: Bool?

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
}
