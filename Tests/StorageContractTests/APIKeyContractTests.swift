import Foundation
import StorageContract
import Testing
import WalletCore

/// Merchant API keys as every backend keeps them: the key, its secret's digest, and its order
/// types (the entitlements of the key's client).
@Suite("Contract: API keys")
struct APIKeyContractTests {
    static func key(_ identifier: String, at seconds: TimeInterval, types: Set<String>) -> APIKey {
        APIKey(
            identifier: identifier, name: "key \(identifier)", createdAt: Date(timeIntervalSince1970: seconds),
            orderTypeIdentifiers: types)
    }

    @Test("keys come back with every order type, oldest first; a lookup returns the digest", arguments: BackendFactory.all)
    func keysWithTypes(_ factory: BackendFactory) async throws {
        let keys = try await factory.make().apiKeys
        let (a, b, c) = (
            Self.key("aaaaaaaaaaaaaaaa", at: 1_790_000_200, types: ["order.com.a", "order.com.b"]),
            Self.key("bbbbbbbbbbbbbbbb", at: 1_790_000_100, types: ["order.com.b"]),
            Self.key("cccccccccccccccc", at: 1_790_000_300, types: ["order.com.c", "order.com.a", "order.com.d"])
        )
        for key in [a, b, c] { try await keys.insertKey(key, secretDigest: "digest-\(key.identifier)") }
        #expect(try await keys.keys() == [b, a, c])
        let found = try #require(try await keys.key(identifier: c.identifier))
        #expect(found.key == c && found.secretDigest == "digest-cccccccccccccccc")
        #expect(try await keys.key(identifier: "dddddddddddddddd") == nil)
        let revokedAt = Date(timeIntervalSince1970: 1_790_000_400)
        #expect(try await keys.revokeKey(identifier: a.identifier, at: revokedAt))
        #expect(try await keys.revokeKey(identifier: a.identifier, at: revokedAt) == false)
        var revoked = a
        revoked.revokedAt = revokedAt
        #expect(try await keys.key(identifier: a.identifier)?.key == revoked)
    }
}
