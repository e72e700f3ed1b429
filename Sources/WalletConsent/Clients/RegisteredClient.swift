import Foundation
import WalletCore

/// A third-party client the owner or operator registered to use the financial-data API: its
/// identity (the access core's ``WalletCore/ClientIdentifier``, so its grants are the ones
/// `orders access` shows), the name the consent sheet shows, and where codes may be sent.
///
/// A confidential client (a server) authenticates at the token endpoint with a secret shown once
/// at registration; a public one (an app on a device) cannot keep a secret and relies on PKCE
/// alone. Both must use PKCE.
public struct RegisteredClient: Sendable, Hashable, Codable {
    public var id: ClientIdentifier
    /// Shown to the owner on the consent sheet, the picker and Settings.
    public var name: String
    /// Compared exactly, character for character, with an authorization request's `redirect_uri`.
    public var redirectURIs: [String]
    /// No secret: an app on a person's device.
    public var isPublic: Bool
    public var createdAt: Date
    /// Set when revoked: the client can start no flow and its tokens are gone.
    public var revokedAt: Date?

    public init(
        id: ClientIdentifier, name: String, redirectURIs: [String], isPublic: Bool, createdAt: Date, revokedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.redirectURIs = redirectURIs
        self.isPublic = isPublic
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// Client ids this server makes (`client.` and 16 hex digits) and the ones API keys use
    /// (`apikey.…`, which no registration may take).
    public static let reservedPrefix = "apikey."

    /// Whether `uri` is, exactly, one of this client's redirect URIs.
    public func allowsRedirect(to uri: String) -> Bool {
        redirectURIs.contains(uri)
    }

    /// Checks a registration: a name of 1–100 characters without control characters, and at least
    /// one acceptable redirect URI (``RedirectURI/check(_:)``).
    public static func checkRegistration(name: String, redirectURIs: [String]) throws(ConsentError) {
        guard (1...100).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidClientRegistration("the name must be 1–100 characters without control characters") }
        guard !redirectURIs.isEmpty, redirectURIs.count <= 10 else {
            throw .invalidClientRegistration("give 1–10 redirect URIs")
        }
        for uri in redirectURIs { try RedirectURI.check(uri) }
    }
}

/// The secret of a newly registered confidential client, shown once.
public struct CreatedClient: Sendable {
    public var client: RegisteredClient
    /// `wcs_…`; nil for a public client.
    public var secret: String?

    public init(client: RegisteredClient, secret: String?) {
        self.client = client
        self.secret = secret
    }
}

/// A client's credential as authentication reads it: the same shape whether the client exists.
public struct ClientCredentialRecord: Sendable, Hashable {
    public var exists: Bool
    public var isRevoked: Bool
    /// nil for a public client, or when there is no client.
    public var secretDigest: String?

    public init(exists: Bool, isRevoked: Bool, secretDigest: String?) {
        self.exists = exists
        self.isRevoked = isRevoked
        self.secretDigest = secretDigest
    }
}
