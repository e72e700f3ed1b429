import Foundation
import WalletPrimitives

/// What the Orders web service needs to answer a device for an order's current version: the
/// archive as saved, its digest (the ETag), `updatedAt` (Last-Modified) and the
/// `authenticationToken` of that version's order.json, against which requests are checked.
///
/// Read without the archive (``OrderRepository/lookUpServedOrder(_:includingArchive:)``) it is the
/// version's facts alone: enough to authenticate, to answer `304`, or to find the archive in a
/// cache keyed by its digest.
public struct ServedOrder: Sendable, Hashable {
    public var identifier: FullyQualifiedOrderIdentifier
    /// nil when read without it.
    public var archive: Data?
    public var archiveSHA256: String
    public var updatedAt: RFC3339Timestamp
    /// nil for an order without a web service (it cannot be fetched or registered for).
    public var authenticationToken: String?

    public init(
        identifier: FullyQualifiedOrderIdentifier, archive: Data?, archiveSHA256: String, updatedAt: RFC3339Timestamp,
        authenticationToken: String?
    ) {
        self.identifier = identifier
        self.archive = archive
        self.archiveSHA256 = archiveSHA256
        self.updatedAt = updatedAt
        self.authenticationToken = authenticationToken
    }
}
