import Foundation
import OrderStorage

/// A stored version of an order (`orders list`, `history`, `show`), every key present.
public struct WireStoredOrder: Codable, Sendable, Hashable {
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    public var updatedAt: String
    public var createdAt: String
    public var status: String
    public var merchantIdentifier: String
    public var merchant: String
    public var teamIdentifier: String
    public var archiveSHA256: String
    public var archiveSize: Int
    public var addedAt: Date
    /// When a newer version replaced this one; null for the current version.
    @Nullable public var replacedAt: Date?

    public init(_ order: StoredOrder) {
        orderTypeIdentifier = order.identifier.orderTypeIdentifier
        orderIdentifier = order.identifier.orderIdentifier
        updatedAt = order.updatedAt.text
        createdAt = order.createdAt.text
        status = order.status
        merchantIdentifier = order.merchantIdentifier
        merchant = order.merchantDisplayName
        teamIdentifier = order.teamIdentifier
        archiveSHA256 = order.archiveSHA256
        archiveSize = order.archiveSize
        addedAt = order.addedAt
        replacedAt = order.replacedAt
    }
}
