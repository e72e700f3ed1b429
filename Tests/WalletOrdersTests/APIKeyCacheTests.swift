import Foundation
import TestArchiveTable
import Testing
import WalletCore
import WalletOrders

/// A merchant API key, once read, is used for `apiKeyStaleness` without reading it again; two
/// `WalletStore`s on one store file stand for two processes (two `orders serve` instances).
@Suite("API keys kept between requests, for a bounded staleness")
struct APIKeyCacheTests {
    @Test("revoked by another process: refused once the bound has passed, not before; revoked here: at once")
    func staleness() async throws {
        let path = WalletFixtures.path()
        let clock = TestClock()
        let serving = try WalletFixtures.wallet(at: path, clock: clock)
        let elsewhere = try WalletFixtures.wallet(at: path, clock: clock)
        let first = try await elsewhere.createAPIKey(name: "first", orderTypes: ["order.com.example.shop"])
        let second = try await elsewhere.createAPIKey(name: "second", orderTypes: ["order.com.example.shop"])

        #expect(try await serving.authenticateAPIKey(first.token)?.identifier == first.key.identifier)
        _ = try await elsewhere.revokeAPIKey(first.key.identifier)
        // Within the bound the key read before is used: this is the cache at work.
        clock.advance(seconds: 0.9)
        #expect(try await serving.authenticateAPIKey(first.token) != nil)
        // At the bound it is read again, and refused.
        clock.advance(seconds: 0.1)
        #expect(try await serving.authenticateAPIKey(first.token) == nil)
        clock.advance(seconds: 5)
        #expect(try await serving.authenticateAPIKey(first.token) == nil)

        // Revoked through the store that authenticates: refused at once.
        #expect(try await serving.authenticateAPIKey(second.token) != nil)
        _ = try await serving.revokeAPIKey(second.key.identifier)
        #expect(try await serving.authenticateAPIKey(second.token) == nil)
    }

    @Test("a wrong secret for a kept key is refused; the key is kept only for its right secret")
    func wrongSecret() async throws {
        let wallet = try WalletFixtures.wallet()
        let created = try await wallet.createAPIKey(name: "shop", orderTypes: ["order.com.example.shop"])
        let wrong = "wok_\(created.key.identifier)_\(String(repeating: "0", count: 64))"
        #expect(try await wallet.authenticateAPIKey(wrong) == nil)
        #expect(try await wallet.authenticateAPIKey(created.token) != nil)
        #expect(try await wallet.authenticateAPIKey(wrong) == nil)
        #expect(try await wallet.authenticateAPIKey(created.token) != nil)
    }

    @Test("apiKeyStaleness zero reads the key on every request")
    func zero() async throws {
        let path = WalletFixtures.path()
        var configuration = try WalletFixtures.configuration()
        configuration.apiKeyStaleness = .zero
        let serving = try WalletStore(path: path, configuration: configuration)
        let elsewhere = try WalletStore(path: path, configuration: configuration)
        let created = try await elsewhere.createAPIKey(name: "shop", orderTypes: ["order.com.example.shop"])
        #expect(try await serving.authenticateAPIKey(created.token) != nil)
        _ = try await elsewhere.revokeAPIKey(created.key.identifier)
        #expect(try await serving.authenticateAPIKey(created.token) == nil)
    }

    @Test("a token not of the form wok_<16>_<64> is refused before anything is read; the right one is accepted")
    func tokenForm() async throws {
        let wallet = try WalletFixtures.wallet()
        let created = try await wallet.createAPIKey(name: "shop", orderTypes: ["order.com.example.shop"])
        let token = created.token
        #expect(try await wallet.authenticateAPIKey(token)?.identifier == created.key.identifier)
        let identifier = String(token.dropFirst(4).prefix(16))
        let secret = String(token.suffix(64))
        let short = String(identifier.dropLast())
        var malformed: [String] = ["", "wok", "wok__", String(token.dropLast()), token + "0"]
        malformed.append("wak_\(identifier)_\(secret)")
        malformed.append("WOK_\(identifier)_\(secret)")
        malformed.append("wok_\(identifier)-\(secret)")
        malformed.append("wok_\(short)_0\(secret)")
        malformed.append("wok_\(identifier)_\(secret.dropLast())_")
        malformed.append("wok_\(short)é_\(secret.dropLast())")
        malformed.append("wok_\(identifier)_\(secret.dropLast(2))é")
        for candidate in malformed {
            #expect(try await wallet.authenticateAPIKey(candidate) == nil, "\(candidate)")
        }
    }
}
