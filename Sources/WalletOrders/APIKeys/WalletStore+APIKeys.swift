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

    /// Revokes the key for good; false when it already was.
    ///
    /// - Throws: ``WalletCore/APIKeyError/unknownKey(_:)`` when there is no such key.
    public func revokeAPIKey(_ identifier: String) async throws -> Bool {
        guard try await backend.apiKeys.key(identifier: identifier) != nil else { throw APIKeyError.unknownKey(identifier) }
        return try await backend.apiKeys.revokeKey(identifier: identifier, at: configuration.clock())
    }

    /// The key a presented token belongs to, or nil when the token is malformed, unknown, wrong
    /// or revoked. The secret's digest is compared in constant time.
    public func authenticateAPIKey(_ token: String) async throws -> APIKey? {
        let parts = token.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "wok", parts[1].utf8.count == 16, parts[2].utf8.count == 64,
            let stored = try await backend.apiKeys.key(identifier: String(parts[1]))
        else { return nil }
        let presented = SHA256Digest.hex(of: Data(parts[2].utf8))
        guard ConstantTime.equals(Array(presented.utf8), Array(stored.secretDigest.utf8)), stored.key.revokedAt == nil else {
            return nil
        }
        return stored.key
    }
}
