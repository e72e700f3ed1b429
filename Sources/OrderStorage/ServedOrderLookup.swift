import Foundation

/// An order's current version as the Orders web service serves it, read in one snapshot with
/// the restriction of orders — which every web-service call checks before anything else — so a
/// device's request costs the store one read.
public struct ServedOrderLookup: Sendable, Hashable {
    /// When an operator restricted orders (``WalletCore/AccessRepository/restriction(of:)``);
    /// nil when they are not restricted.
    public var restrictedSince: Date?
    /// nil when no such order is stored.
    public var order: ServedOrder?

    public init(restrictedSince: Date?, order: ServedOrder?) {
        self.restrictedSince = restrictedSince
        self.order = order
    }
}
