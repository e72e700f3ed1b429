import Foundation
import OrderPackage
import WalletPrimitives

/// One stored version of an order: what the store knows without reading the archive.
public struct StoredOrder: Sendable, Hashable, Codable {
    public var identifier: FullyQualifiedOrderIdentifier
    /// `updatedAt` exactly as written in order.json.
    public var updatedAt: RFC3339Timestamp
    public var createdAt: RFC3339Timestamp
    /// The order's `status` (`open`, `completed`, `cancelled`).
    public var status: String
    public var merchantIdentifier: String
    public var merchantDisplayName: String
    /// The signing certificate's team identifier (its subject OU).
    public var teamIdentifier: String
    /// Lowercase hex SHA-256 of the archive.
    public var archiveSHA256: String
    public var archiveSize: Int
    /// When this version entered the store.
    public var addedAt: Date
    /// When a newer version replaced this one; nil for the current version.
    public var replacedAt: Date?
    /// The identifier of the merchant API key that uploaded this version; nil when it came
    /// another way (`orders add`, the library, the console's upload form).
    public var uploadedBy: String?

    public init(
        identifier: FullyQualifiedOrderIdentifier, updatedAt: RFC3339Timestamp, createdAt: RFC3339Timestamp, status: String,
        merchantIdentifier: String, merchantDisplayName: String, teamIdentifier: String, archiveSHA256: String,
        archiveSize: Int, addedAt: Date, replacedAt: Date? = nil, uploadedBy: String? = nil
    ) {
        self.identifier = identifier
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.status = status
        self.merchantIdentifier = merchantIdentifier
        self.merchantDisplayName = merchantDisplayName
        self.teamIdentifier = teamIdentifier
        self.archiveSHA256 = archiveSHA256
        self.archiveSize = archiveSize
        self.addedAt = addedAt
        self.replacedAt = replacedAt
        self.uploadedBy = uploadedBy
    }
}
