import Foundation

/// What every order call of a client checks, read in one snapshot: whether orders are
/// restricted, and whether the client is entitled to the order's type.
public struct OrderTypeAccess: Sendable, Hashable {
    /// When an operator restricted orders; nil when they are not restricted.
    public var restrictedSince: Date?
    /// Whether the client is entitled to the order type (``ClientAccess/orderTypeIdentifiers``).
    public var isEntitled: Bool

    public init(restrictedSince: Date?, isEntitled: Bool) {
        self.restrictedSince = restrictedSince
        self.isEntitled = isEntitled
    }
}
