import Foundation
import WalletPrimitives

/// An order's current version as the Orders web service serves it, read in one snapshot with
/// the restriction of orders — which every web-service call checks before anything else — so a
/// device's request costs the store one read.
///
/// A lookup of an order that is not stored still holds a version of the same shape
/// (``candidate``, made of placeholders), so that checking a token against it costs what
/// checking one against a stored order costs: timing must not tell which orders exist.
public struct ServedOrderLookup: Sendable, Hashable {
    /// When an operator restricted orders (``WalletCore/AccessRepository/restriction(of:)``);
    /// nil when they are not restricted.
    public var restrictedSince: Date?
    /// The stored version, or placeholders of its shape when ``isStored`` is false.
    package var candidate: ServedOrder
    /// Whether ``candidate`` is a stored order.
    package var isStored: Bool

    /// nil when no such order is stored.
    public var order: ServedOrder? { isStored ? candidate : nil }

    public init(restrictedSince: Date?, order: ServedOrder?) {
        self.init(restrictedSince: restrictedSince, candidate: order ?? Self.placeholder, isStored: order != nil)
    }

    package init(restrictedSince: Date?, candidate: ServedOrder, isStored: Bool) {
        self.restrictedSince = restrictedSince
        self.candidate = candidate
        self.isStored = isStored
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.restrictedSince == rhs.restrictedSince && lhs.order == rhs.order
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(restrictedSince)
        hasher.combine(order)
    }

    private static let placeholder = ServedOrder(
        identifier: FullyQualifiedOrderIdentifier(orderTypeIdentifier: "", orderIdentifier: ""), archive: nil,
        archiveSHA256: "", updatedAt: RFC3339Timestamp(Date(timeIntervalSince1970: 0)), authenticationToken: nil)
}
