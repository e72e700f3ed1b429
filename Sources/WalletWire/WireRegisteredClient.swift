import Foundation
import WalletConsent
import WalletCore

/// A registered client as `orders finance clients` prints it; `clientSecret` only when it was
/// just created (and the client is confidential), `status` when known.
public struct WireRegisteredClient: Codable, Sendable, Hashable {
    public var clientID: String
    public var name: String
    public var redirectURIs: [String]
    public var isPublic: Bool
    public var createdAt: Date
    @Nullable public var revokedAt: Date?
    @Nullable public var status: AuthorizationStatus?
    @Nullable public var clientSecret: String?

    public init(_ client: RegisteredClient, status: AuthorizationStatus? = nil, secret: String? = nil) {
        clientID = client.id.rawValue
        name = client.name
        redirectURIs = client.redirectURIs
        isPublic = client.isPublic
        createdAt = client.createdAt
        revokedAt = client.revokedAt
        self.status = status
        clientSecret = secret
    }
}
