import Foundation
import WalletCore

/// An API key as `orders keys` prints it; `token` only when it was just created.
public struct WireAPIKey: Codable, Sendable, Hashable {
    public var key: String
    public var name: String
    public var orderTypeIdentifiers: [String]
    public var createdAt: Date
    @Nullable public var revokedAt: Date?
    @Nullable public var token: String?

    public init(_ key: APIKey, token: String? = nil) {
        self.key = key.identifier
        name = key.name
        orderTypeIdentifiers = key.orderTypeIdentifiers.sorted()
        createdAt = key.createdAt
        revokedAt = key.revokedAt
        self.token = token
    }
}
