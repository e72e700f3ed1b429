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

extension WireStoredOrder: WireJSONWritable {
    public func write(to writer: inout WireJSONWriter) {
        writer.beginObject()
        writer.key("addedAt")
        writer.date(addedAt)
        writer.key("archiveSHA256")
        writer.string(archiveSHA256)
        writer.key("archiveSize")
        writer.integer(archiveSize)
        writer.key("createdAt")
        writer.string(createdAt)
        writer.key("merchant")
        writer.string(merchant)
        writer.key("merchantIdentifier")
        writer.string(merchantIdentifier)
        writer.key("orderIdentifier")
        writer.string(orderIdentifier)
        writer.key("orderTypeIdentifier")
        writer.string(orderTypeIdentifier)
        writer.key("replacedAt")
        writer.date(replacedAt)
        writer.key("status")
        writer.string(status)
        writer.key("teamIdentifier")
        writer.string(teamIdentifier)
        writer.key("updatedAt")
        writer.string(updatedAt)
        writer.endObject()
    }
}
