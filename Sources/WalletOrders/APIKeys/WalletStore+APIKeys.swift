import Foundation
import OrderPackage
import WalletCore
import WalletPrimitives

/// Merchant API keys: each is a client of the access core, entitled to its order types.
///
/// ```swift
/// let created = try await wallet.createAPIKey(name: "shop backend", orderTypes: ["order.com.example.shop"])
/// print(created.token)                                   // give it to the merchant, once
/// let key = try await wallet.authenticateAPIKey(token)   // nil: unknown, wrong or revoked
/// let store = wallet.financeStore(for: key!.client)      // saves only its order types
/// ```
extension WalletStore {
    /// Creates a key entitled to `orderTypes` (at least one).
    public func createAPIKey(name: String, orderTypes: Set<String>) async throws -> CreatedAPIKey {
        try await control.checkUsable(.orders, for: "createAPIKey")
        guard !orderTypes.isEmpty, !orderTypes.contains(where: \.isEmpty) else {
            throw APIKeyError.noOrderTypes
        }
        var generator = SystemRandomNumberGenerator()
        let identifier = SHA256Digest.hexString((0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let secret = SHA256Digest.hexString((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let key = APIKey(
            identifier: identifier, name: name, createdAt: configuration.clock(), orderTypeIdentifiers: orderTypes)
        try await backend.apiKeys.insertKey(key, secretDigest: SHA256Digest.hex(of: Data(secret.utf8)))
        return CreatedAPIKey(key: key, token: "wok_\(identifier)_\(secret)")
    }

    /// Every key, revoked ones included, oldest first.
    public func apiKeys() async throws -> [APIKey] {
        try await backend.apiKeys.keys()
    }

    /// Revokes a key for good, named by its identifier (as `orders keys list` shows it) or by
    /// the whole key (`wok_<identifier>_<secret>`, whose secret must then be the key's).
    /// Nothing said about it — the result, an error — holds any part of a secret.
    ///
    /// - Throws: `APIKeyError.unknownKey` when there is no such key (naming the
    ///   identifier only), `APIKeyError.secretMismatch` for a whole key whose
    ///   secret is not the stored one.
    public func revokeAPIKey(_ keyOrIdentifier: String) async throws -> RevokedAPIKey {
        let reference = APIKeyReference(keyOrIdentifier)
        guard let stored = try await backend.apiKeys.key(identifier: reference.identifier) else {
            throw APIKeyError.unknownKey(reference.identifier)
        }
        if let secret = reference.secret,
            !ConstantTime.equals(Array(SHA256Digest.hex(of: Data(secret.utf8)).utf8), Array(stored.secretDigest.utf8))
        {
            throw APIKeyError.secretMismatch(reference.identifier)
        }
        let revoked = try await backend.apiKeys.revokeKey(identifier: reference.identifier, at: configuration.clock())
        apiKeyCache.forget(reference.identifier)
        return RevokedAPIKey(identifier: reference.identifier, wasAlreadyRevoked: !revoked)
    }

    /// The key a presented token belongs to, or nil when the token is malformed, unknown, wrong
    /// or revoked. A well-formed token costs the same whether its identifier exists or not: the
    /// secret's digest is read alone (`APIKeyRepository.secretDigest(identifier:)`),
    /// the presented secret is hashed and compared in constant time against it or, for an
    /// unknown identifier, against a placeholder; only a right secret reads the key itself.
    ///
    /// What was read is kept for ``WalletConfiguration/apiKeyStaleness`` (1 s unless
    /// configured), for known and unknown identifiers alike: a key revoked through this store is
    /// refused at once, one revoked by another process within that bound.
    public func authenticateAPIKey(_ token: String) async throws -> APIKey? {
        // `wok_`, 16 characters, `_`, 64 characters, ASCII without another `_`: read by bytes
        // (every merchant request comes here).
        let bytes = token.utf8
        guard bytes.count == 85, bytes.starts(with: "wok_".utf8), bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let identifierStart = bytes.index(bytes.startIndex, offsetBy: 4)
        let separator = bytes.index(identifierStart, offsetBy: 16)
        let secretStart = bytes.index(after: separator)
        guard bytes[separator] == UInt8(ascii: "_"), !bytes[identifierStart..<separator].contains(UInt8(ascii: "_")),
            !bytes[secretStart...].contains(UInt8(ascii: "_"))
        else { return nil }
        let identifier = String(token[identifierStart..<separator])
        let secret = token[secretStart...]
        let now = configuration.clock()
        let (kept, revocations) = apiKeyCache.fresh(identifier, now: now)
        var entry: APIKeyCache.Entry
        if let kept {
            entry = kept
        } else {
            entry = APIKeyCache.Entry(secretDigest: try await backend.apiKeys.secretDigest(identifier: identifier), readAt: now)
        }
        let presented = SHA256Digest.hex(of: Data(secret.utf8))
        let matches = ConstantTime.equals(Array(presented.utf8), Array((entry.secretDigest ?? Self.placeholderDigest).utf8))
        if entry.secretDigest != nil, matches, entry.key == nil {
            entry.key = try await backend.apiKeys.key(identifier: identifier)?.key
            apiKeyCache.keep(entry, for: identifier, readAfter: revocations)
        } else if kept == nil {
            apiKeyCache.keep(entry, for: identifier, readAfter: revocations)
        }
        guard entry.secretDigest != nil, matches, let key = entry.key, key.revokedAt == nil else { return nil }
        return key
    }

    /// Compared with when no key has the identifier; no secret hashes to it.
    private static let placeholderDigest = String(repeating: "g", count: 64)
}
