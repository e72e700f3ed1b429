import OrderPackage
import WalletPrimitives

/// An order's identity across merchants: its order type identifier (the signing certificate's)
/// and its order identifier (unique within the type). Both match exactly, case-sensitively.
///
/// ```swift
/// let id = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "ORDER-123")
/// ```
public struct FullyQualifiedOrderIdentifier: Codable, Hashable, Sendable, CustomStringConvertible {
    public var orderTypeIdentifier: String
    public var orderIdentifier: String

    public init(orderTypeIdentifier: String, orderIdentifier: String) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
    }

    /// `order.com.example.shop/ORDER-123`, for people. Never parse it: identifiers may contain `/`.
    public var description: String {
        "\(orderTypeIdentifier)/\(orderIdentifier)"
    }

    /// ``description`` for messages: each part cut to 80 characters and control characters
    /// escaped (``OrderPackage/MessageText``), since identifiers from callers can be any size
    /// and hold anything.
    public var clippedDescription: String {
        "\(MessageText.visible(orderTypeIdentifier))/\(MessageText.visible(orderIdentifier))"
    }
}
