import Foundation
import StorageContract
import Testing
import WalletConsent
import WalletCore

/// The consent machinery's storage, the same on every backend: sessions, failed sign-ins,
/// clients, single-use codes, token rotation, and housekeeping.
@Suite("Contract: consent (owner, sessions, clients, codes, tokens)")
struct ConsentContractTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let client: ClientIdentifier = "com.example.budget"

    static func registered(_ id: ClientIdentifier = client, at seconds: TimeInterval = 0) -> RegisteredClient {
        RegisteredClient(
            id: id, name: "Budget \(id.rawValue)", redirectURIs: ["https://budget.example/cb", "com.example.budget:/cb"],
            isPublic: false, createdAt: start.addingTimeInterval(seconds))
    }

    static func code(
        _ digest: String, purpose: IssuedCode.Purpose = .authorization, client: ClientIdentifier = client,
        selection: [UUID] = [], expiresIn: TimeInterval = 60
    ) -> IssuedCode {
        IssuedCode(
            digest: digest, purpose: purpose, client: client, redirectURI: "https://budget.example/cb",
            codeChallenge: "challenge",
            family: "family-\(digest)", selection: selection, createdAt: start, expiresAt: start.addingTimeInterval(expiresIn))
    }

    static func token(
        _ digest: String, _ kind: IssuedToken.Kind, family: String = "f1", client: ClientIdentifier = client,
        expiresIn: TimeInterval = 3_600
    ) -> IssuedToken {
        IssuedToken(
            digest: digest, kind: kind, client: client, family: family, createdAt: start,
            expiresAt: start.addingTimeInterval(expiresIn))
    }

    @Test("the owner's hash; a new one ends every session", arguments: BackendFactory.all)
    func ownerAndSessions(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        #expect(try await consent.ownerPasswordHash() == nil)
        try await consent.setOwnerPasswordHash("$2b$04$first", at: Self.start)
        #expect(try await consent.ownerPasswordHash() == "$2b$04$first")
        let session = OwnerSession(digest: "s1", formToken: "form", createdAt: Self.start, lastSeenAt: Self.start)
        try await consent.insertSession(session)
        #expect(try await consent.session(digest: "s1") == session)
        try await consent.touchSession(digest: "s1", at: Self.start.addingTimeInterval(90))
        #expect(try await consent.session(digest: "s1")?.lastSeenAt == Self.start.addingTimeInterval(90))
        // Never back in time.
        try await consent.touchSession(digest: "s1", at: Self.start.addingTimeInterval(10))
        #expect(try await consent.session(digest: "s1")?.lastSeenAt == Self.start.addingTimeInterval(90))
        try await consent.setOwnerPasswordHash("$2b$04$second", at: Self.start)
        #expect(try await consent.session(digest: "s1") == nil)
        try await consent.insertSession(session)
        try await consent.deleteSession(digest: "s1")
        #expect(try await consent.session(digest: "s1") == nil)
    }

    @Test("failed sign-ins count per address and in total within the window", arguments: BackendFactory.all)
    func signInFailures(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        for (address, seconds) in [("192.0.2.1", 0.0), ("192.0.2.1", 10), ("192.0.2.2", 20), ("192.0.2.1", 900)] {
            try await consent.recordSignInFailure(from: address, at: Self.start.addingTimeInterval(seconds))
        }
        #expect(try await consent.signInFailures(from: "192.0.2.1", since: Self.start) == (3, 4))
        #expect(try await consent.signInFailures(from: "192.0.2.1", since: Self.start.addingTimeInterval(15)) == (1, 2))
        try await consent.clearSignInFailures(from: "192.0.2.1")
        #expect(try await consent.signInFailures(from: "192.0.2.1", since: Self.start) == (0, 1))
    }

    @Test("clients: taken ids refused, redirect URIs in order, public ones without a secret", arguments: BackendFactory.all)
    func clients(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        let other = RegisteredClient(
            id: "client.0123456789abcdef", name: "Receipts", redirectURIs: ["com.example.receipts:/cb"], isPublic: true,
            createdAt: Self.start.addingTimeInterval(-5))
        #expect(try await consent.insertClient(Self.registered(), secretDigest: "digest"))
        #expect(try await consent.insertClient(Self.registered(), secretDigest: "other") == false)
        #expect(try await consent.insertClient(other, secretDigest: nil))
        #expect(try await consent.registeredClients() == [other, Self.registered()])
        let found = try #require(try await consent.client(Self.client))
        #expect(found.client == Self.registered() && found.secretDigest == "digest")
        #expect(try await consent.client("client.0123456789abcdef")?.secretDigest == nil)
        #expect(try await consent.client("com.example.none") == nil)
    }

    @Test(
        "a code is redeemed once: the first sees it unused, every later one used, none its selection",
        arguments: BackendFactory.all)
    func codes(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        let picked = [UUID(), UUID(), UUID()]
        try await consent.insertCode(Self.code("c1"))
        try await consent.insertCode(Self.code("p1", purpose: .pick, selection: picked))
        // The wrong purpose finds nothing and uses nothing up.
        #expect(try await consent.redeemCode(digest: "p1", purpose: .authorization, at: Self.start) == nil)
        let first = try #require(try await consent.redeemCode(digest: "p1", purpose: .pick, at: Self.start))
        #expect(first.wasUsed == false && first.code.selection == picked && first.code.family == "family-p1")
        #expect(first.code == Self.code("p1", purpose: .pick, selection: picked))
        let second = try #require(try await consent.redeemCode(digest: "p1", purpose: .pick, at: Self.start))
        #expect(second.wasUsed && second.code.selection == [])
        #expect(try await consent.redeemCode(digest: "unknown", purpose: .pick, at: Self.start) == nil)
        #expect(try await consent.redeemCode(digest: "c1", purpose: .authorization, at: Self.start)?.wasUsed == false)
    }

    @Test("many redemptions of one code at once: exactly one finds it unused", arguments: BackendFactory.all)
    func concurrentRedemption(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        try await consent.insertCode(Self.code("race"))
        let outcomes = try await withThrowingTaskGroup(of: Bool?.self) { group in
            for _ in 0..<8 {
                group.addTask { try await consent.redeemCode(digest: "race", purpose: .authorization, at: Self.start)?.wasUsed }
            }
            return try await group.reduce(into: [Bool?]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == false }.count == 1)
        #expect(outcomes.filter { $0 == true }.count == 7)
    }

    @Test("refresh tokens rotate once; used again, or by another client, the family ends", arguments: BackendFactory.all)
    func rotation(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        try await consent.insertTokens([Self.token("a1", .access), Self.token("r1", .refresh)])
        #expect(try await consent.accessToken(digest: "a1", at: Self.start)?.client == Self.client)
        #expect(try await consent.accessToken(digest: "r1", at: Self.start) == nil)  // a refresh token is no access token
        #expect(try await consent.accessToken(digest: "a1", at: Self.start.addingTimeInterval(3_600)) == nil)  // expired
        let next = [Self.token("a2", .access, family: "ignored"), Self.token("r2", .refresh, family: "ignored")]
        #expect(
            try await consent.rotateRefreshToken(digest: "r1", client: Self.client, replacements: next, at: Self.start)
                == .rotated)
        #expect(try await consent.accessToken(digest: "a2", at: Self.start)?.client == Self.client)
        // r1 again: one of its holders is not the client; the whole family goes, a1 and a2 too.
        #expect(
            try await consent.rotateRefreshToken(digest: "r1", client: Self.client, replacements: [], at: Self.start) == .revoked)
        #expect(try await consent.accessToken(digest: "a2", at: Self.start) == nil)
        #expect(
            try await consent.rotateRefreshToken(digest: "r2", client: Self.client, replacements: [], at: Self.start) == .invalid)
        try await consent.insertTokens([Self.token("a3", .access, family: "f3"), Self.token("r3", .refresh, family: "f3")])
        #expect(
            try await consent.rotateRefreshToken(digest: "r3", client: "com.example.other", replacements: [], at: Self.start)
                == .revoked)
        #expect(try await consent.accessToken(digest: "a3", at: Self.start) == nil)
        try await consent.insertTokens([Self.token("r4", .refresh, family: "f4", expiresIn: 10)])
        #expect(
            try await consent.rotateRefreshToken(
                digest: "r4", client: Self.client, replacements: [], at: Self.start.addingTimeInterval(10)) == .invalid)
    }

    @Test("revoking a client, or its access, or denying it, takes its codes and tokens", arguments: BackendFactory.all)
    func revocation(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let consent = backend.consent
        #expect(try await consent.insertClient(Self.registered(), secretDigest: nil))
        for (index, step) in ["revokeClient", "revokeAccess", "deny"].enumerated() {
            try await consent.insertCode(Self.code("code\(index)"))
            try await consent.insertTokens([Self.token("access\(index)", .access, family: "f\(index)")])
            switch step {
            case "revokeClient": #expect(try await consent.revokeClient(Self.client, at: Self.start))
            case "revokeAccess": try await backend.access.revoke(Self.client, accounts: [], at: Self.start)
            default: try await backend.access.deny(Self.client, at: Self.start)
            }
            #expect(try await consent.accessToken(digest: "access\(index)", at: Self.start) == nil, "\(step)")
            #expect(
                try await consent.redeemCode(digest: "code\(index)", purpose: .authorization, at: Self.start) == nil, "\(step)")
        }
        #expect(try await consent.revokeClient(Self.client, at: Self.start) == false)
        #expect(try await consent.client(Self.client)?.client.revokedAt == Self.start)
    }

    @Test(
        "housekeeping removes expired codes, tokens, sessions and old failures, and nothing current",
        arguments: BackendFactory.all)
    func purge(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        let later = Self.start.addingTimeInterval(120)
        try await consent.insertCode(Self.code("old", purpose: .pick, selection: [UUID()], expiresIn: 60))
        try await consent.insertCode(Self.code("new", expiresIn: 600))
        try await consent.insertTokens([Self.token("gone", .access, expiresIn: 60), Self.token("kept", .access)])
        try await consent.insertSession(
            OwnerSession(digest: "idle", formToken: "t", createdAt: Self.start, lastSeenAt: Self.start))
        try await consent.insertSession(OwnerSession(digest: "live", formToken: "t", createdAt: Self.start, lastSeenAt: later))
        try await consent.recordSignInFailure(from: "192.0.2.9", at: Self.start)
        let policy = SessionPolicy(idleTimeout: 60, absoluteLifetime: 3_600)
        let removed = try await consent.purgeExpired(at: later, sessions: policy, failuresBefore: later)
        #expect(removed == 4)
        #expect(try await consent.redeemCode(digest: "old", purpose: .pick, at: later) == nil)
        #expect(try await consent.redeemCode(digest: "new", purpose: .authorization, at: later) != nil)
        #expect(try await consent.accessToken(digest: "kept", at: later) != nil)
        #expect(try await consent.session(digest: "idle") == nil)
        #expect(try await consent.session(digest: "live") != nil)
        #expect(try await consent.signInFailures(from: "192.0.2.9", since: .distantPast) == (0, 0))
    }
}
