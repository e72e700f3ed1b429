import Foundation
import OrderPackage
import WalletConsent
import WalletCore
import WalletPrimitives

extension FinanceConsent {
    /// Registers a client that may ask for financial data. Without `id`, one is made
    /// (`client.` and 16 hex digits). A confidential client gets a secret, returned once; a
    /// public one (an app on a device) none.
    ///
    /// - Throws: ``WalletConsent/ConsentError/invalidClientRegistration(_:)`` for a malformed id,
    ///   name or redirect URI, ``WalletConsent/ConsentError/clientExists(_:)`` for a taken id.
    public func registerClient(
        id: String? = nil, name: String, redirectURIs: [String], isPublic: Bool
    ) async throws -> CreatedClient {
        try await control.checkUsable(.financialData, for: "registerClient")
        try RegisteredClient.checkRegistration(name: name, redirectURIs: redirectURIs)
        let identifier: ClientIdentifier
        if let id {
            guard let parsed = ClientIdentifier(rawValue: id), !id.hasPrefix(RegisteredClient.reservedPrefix) else {
                throw ConsentError.invalidClientRegistration(
                    "a client id is 1–255 letters, digits, '.', '-' and '_', and does not begin with 'apikey.'")
            }
            identifier = parsed
        } else {
            var generator = SystemRandomNumberGenerator()
            let random = SHA256Digest.hexString((0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            identifier = ClientIdentifier(stringLiteral: "client.\(random)")
        }
        let secret = isPublic ? nil : SecretToken.generate(.clientSecret)
        let client = RegisteredClient(
            id: identifier, name: name, redirectURIs: redirectURIs, isPublic: isPublic, createdAt: clock())
        guard try await repository.insertClient(client, secretDigest: secret?.digest) else {
            throw ConsentError.clientExists(identifier.rawValue)
        }
        logger.info("client registered", metadata: ["client": .string(identifier.rawValue)])
        return CreatedClient(client: client, secret: secret?.value)
    }

    /// Every registered client, revoked ones included, oldest first.
    public func registeredClients() async throws -> [RegisteredClient] {
        try await repository.registeredClients()
    }

    /// The registered client with this id, revoked or not.
    public func registeredClient(_ id: ClientIdentifier) async throws -> RegisteredClient? {
        try await repository.client(id)?.client
    }

    /// Revokes the registration: the client can start no flow, its codes and tokens are gone, and
    /// its access to financial data is revoked as `orders access revoke` would (its history
    /// cursors too). False when there is no such client or it was already revoked.
    @discardableResult
    public func revokeClient(_ id: ClientIdentifier) async throws -> Bool {
        let now = clock()
        guard try await repository.revokeClient(id, at: now) else { return false }
        try await access.revoke(id, accounts: [], at: now)
        logger.info("client revoked", metadata: ["client": .string(id.rawValue)])
        return true
    }

    /// The client these credentials authenticate (see below); for calls a client makes without
    /// a token (`authorizationStatus` after Don't Allow).
    public func authenticatedClient(_ credentials: ClientCredentials) async throws -> ClientIdentifier {
        try await authenticate(credentials).id
    }

    /// The client of a token request, authenticated: a confidential client by its secret
    /// (compared in constant time with the stored digest), a public one by its id alone.
    ///
    /// A refusal does the same work whether a client has the id or not — one read of the same
    /// shape, the presented secret hashed and compared with the stored digest or a placeholder —
    /// so that timing does not tell which ids exist.
    ///
    /// - Throws: ``WalletConsent/ConsentError/invalidClient`` for an unknown or revoked client, a
    ///   missing or wrong secret, or a secret sent by a public client.
    func authenticate(_ credentials: ClientCredentials) async throws -> RegisteredClient {
        let record = try await repository.clientCredential(credentials.id)
        let presented = SecretToken.digest(of: credentials.secret ?? "")
        let matches = ConstantTime.equals(Array(presented.utf8), Array((record.secretDigest ?? Self.placeholderDigest).utf8))
        let authenticated =
            record.exists && !record.isRevoked
            && (record.secretDigest == nil ? credentials.secret == nil : credentials.secret != nil && matches)
        guard authenticated, let id = ClientIdentifier(rawValue: credentials.id),
            let (client, _) = try await repository.client(id)
        else { throw ConsentError.invalidClient }
        return client
    }

    /// Compared with when there is no secret to compare with; no secret hashes to it.
    private static let placeholderDigest = String(repeating: "g", count: 64)
}

/// Who a token request says it is (RFC 6749 §2.3): `client_id`, and for a confidential client its
/// secret, from HTTP Basic or the form.
public struct ClientCredentials: Sendable, Hashable {
    public var id: String
    public var secret: String?

    public init(id: String, secret: String? = nil) {
        self.id = id
        self.secret = secret
    }
}
