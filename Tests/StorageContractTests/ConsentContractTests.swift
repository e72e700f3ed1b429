import Foundation
import StorageContract
import Testing
import WalletConsent
import WalletCore

/// The consent machinery's storage, the same on every backend: sessions, sign-in attempts,
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

    static func attempt(_ address: String, device: String? = nil, at seconds: TimeInterval = 0) -> SignInAttempt {
        SignInAttempt(address: address, device: device, at: start.addingTimeInterval(seconds))
    }

    @Test("sign-in attempts: admitted per address, network and device within the window; cleared", arguments: BackendFactory.all)
    func signInAdmissions(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        let throttle = SignInThrottle(window: 900, perAddress: 2, perNetwork: 3, perDevice: 2, slowdownAfter: 50)
        func admit(_ attempt: SignInAttempt) async throws -> SignInAdmission {
            try await consent.admitSignIn(attempt, throttle: throttle)
        }
        #expect(try await admit(Self.attempt("192.0.2.1")) == .admitted(recentUntrusted: 1))
        #expect(try await admit(Self.attempt("192.0.2.1", at: 10)) == .admitted(recentUntrusted: 2))
        // The address is full until its oldest attempt leaves the window.
        #expect(try await admit(Self.attempt("192.0.2.1", at: 20)) == .refused(until: Self.start.addingTimeInterval(900)))
        // Its network has room for one more, from another address.
        #expect(try await admit(Self.attempt("192.0.2.2", at: 30)) == .admitted(recentUntrusted: 3))
        #expect(try await admit(Self.attempt("192.0.2.3", at: 40)) == .refused(until: Self.start.addingTimeInterval(900)))
        // Another network, and a trusted device on the full one, are not held back by them.
        #expect(try await admit(Self.attempt("198.51.100.7", at: 50)) == .admitted(recentUntrusted: 4))
        #expect(try await admit(Self.attempt("192.0.2.1", device: "d1", at: 60)) == .admitted(recentUntrusted: 4))
        #expect(try await admit(Self.attempt("192.0.2.1", device: "d1", at: 70)) == .admitted(recentUntrusted: 4))
        #expect(
            try await admit(Self.attempt("192.0.2.1", device: "d1", at: 80))
                == .refused(until: Self.start.addingTimeInterval(960)))
        // The window moves on.
        #expect(try await admit(Self.attempt("192.0.2.1", at: 901)) == .admitted(recentUntrusted: 4))
        // A success clears its address (or its device); unlock clears everything.
        try await consent.clearSignInAttempts(address: "192.0.2.1", device: "d1")
        #expect(try await admit(Self.attempt("192.0.2.1", device: "d1", at: 902)) == .admitted(recentUntrusted: 4))
        #expect(try await consent.clearAllSignInAttempts() == 6)
        #expect(try await admit(Self.attempt("192.0.2.3", at: 903)) == .admitted(recentUntrusted: 1))
    }

    @Test(
        "sign-in attempts made at once cannot pass a limit together: 15 at once from one address, 5 admitted",
        arguments: BackendFactory.all)
    func signInAdmissionsAtOnce(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        let throttle = SignInThrottle(perAddress: 5)
        let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
            // 15 (30 over HTTP on SQLite: FinanceWebTests.signInsAtOnce): every admission waits
            // for the one before it, and the backend here has 3 connections.
            for index in 0..<15 {
                group.addTask {
                    if case .admitted = try await consent.admitSignIn(
                        Self.attempt("203.0.113.9", at: Double(index)), throttle: throttle)
                    {
                        return true
                    }
                    return false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(admitted == 5)
    }

    @Test("trusted devices: known while used within their lifetime; forgotten by a new password", arguments: BackendFactory.all)
    func trustedDevices(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        try await consent.insertTrustedDevice(digest: "d1", at: Self.start)
        #expect(try await consent.useTrustedDevice(digest: "d1", unusedSince: Self.start, at: Self.start.addingTimeInterval(60)))
        #expect(try await !consent.useTrustedDevice(digest: "d2", unusedSince: .distantPast, at: Self.start))
        // Used at +60: not unused since +61.
        #expect(
            try await !consent.useTrustedDevice(
                digest: "d1", unusedSince: Self.start.addingTimeInterval(61), at: Self.start.addingTimeInterval(62)))
        try await consent.deleteTrustedDevice(digest: "d1")
        #expect(try await !consent.useTrustedDevice(digest: "d1", unusedSince: .distantPast, at: Self.start))
        try await consent.insertTrustedDevice(digest: "d3", at: Self.start)
        _ = try await consent.admitSignIn(Self.attempt("192.0.2.1"), throttle: SignInThrottle())
        try await consent.setOwnerPasswordHash("$2b$04$new", at: Self.start)
        #expect(try await !consent.useTrustedDevice(digest: "d3", unusedSince: .distantPast, at: Self.start))
        #expect(try await consent.clearAllSignInAttempts() == 0)
    }

    @Test("sign-in networks: an IPv4 address's /24 (mapped too), an IPv6 address's /64, anything else itself")
    func signInNetworks() {
        #expect(SignInAttempt.network(of: "203.0.113.77") == "203.0.113.0/24")
        #expect(SignInAttempt.network(of: "2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(SignInAttempt.network(of: "::ffff:203.0.113.77") == "203.0.113.0/24")
        #expect(SignInAttempt.network(of: "a") == "a")
    }

    @Test(
        "a redeemed code outlives its expiry while a token of its family lives, so a late replay is still recognized",
        arguments: BackendFactory.all)
    func redeemedCodesKept(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        try await consent.insertCode(Self.code("redeemed", expiresIn: 60))
        try await consent.insertCode(Self.code("unused", expiresIn: 60))
        _ = try await consent.redeemCode(digest: "redeemed", purpose: .authorization, at: Self.start.addingTimeInterval(5))
        try await consent.insertTokens([Self.token("refresh", .refresh, family: "family-redeemed", expiresIn: 30 * 86_400)])
        let policy = ConsentPolicy()
        #expect(try await consent.purgeExpired(at: Self.start.addingTimeInterval(66), policy: policy) == 1)  // "unused"
        #expect(
            try await consent.redeemCode(digest: "redeemed", purpose: .authorization, at: Self.start.addingTimeInterval(66))?
                .wasUsed == true)
        // Its family gone (revoked, or expired), it goes too.
        try await consent.revokeTokens(family: "family-redeemed")
        #expect(try await consent.purgeExpired(at: Self.start.addingTimeInterval(67), policy: policy) == 1)
        #expect(
            try await consent.redeemCode(digest: "redeemed", purpose: .authorization, at: Self.start.addingTimeInterval(68))
                == nil)
    }

    @Test(
        "RFC 7009: a client revokes an access token alone, a refresh token with its family; another client's token not at all",
        arguments: BackendFactory.all)
    func revokeToken(_ factory: BackendFactory) async throws {
        let consent = try await factory.make().consent
        try await consent.insertTokens([
            Self.token("access-1", .access, family: "f1"), Self.token("access-2", .access, family: "f1"),
            Self.token("refresh-1", .refresh, family: "f1"), Self.token("access-3", .access, family: "f2"),
        ])
        #expect(try await !consent.revokeToken(digest: "access-1", client: "com.example.other"))
        #expect(try await consent.accessToken(digest: "access-1", at: Self.start) != nil)
        #expect(try await consent.revokeToken(digest: "access-1", client: Self.client))
        #expect(try await consent.accessToken(digest: "access-1", at: Self.start) == nil)
        #expect(try await consent.accessToken(digest: "access-2", at: Self.start) != nil)
        #expect(try await consent.revokeToken(digest: "refresh-1", client: Self.client))
        #expect(try await consent.accessToken(digest: "access-2", at: Self.start) == nil)
        #expect(try await consent.accessToken(digest: "access-3", at: Self.start) != nil)
        #expect(try await !consent.revokeToken(digest: "refresh-1", client: Self.client))
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

    @Test(
        "an access snapshot: the token's client and expiry, the client's access and the restriction, in one read",
        arguments: BackendFactory.all)
    func accessSnapshot(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let consent = backend.consent
        #expect(try await consent.insertClient(Self.registered(), secretDigest: nil))
        try await consent.insertTokens([Self.token("a1", .access), Self.token("r1", .refresh)])
        let fresh = try #require(try await consent.accessSnapshot(digest: "a1", at: Self.start))
        #expect(fresh.client == Self.client && fresh.expiresAt == Self.start.addingTimeInterval(3_600))
        #expect(fresh.access == ClientAccess(client: Self.client, status: .notDetermined))
        #expect(fresh.restrictedSince == nil)

        let (first, second) = (UUID(), UUID())
        let earliest = Self.start.addingTimeInterval(-86_400)
        try await backend.access.grant(
            [AccountGrant(accountID: first), AccountGrant(accountID: second, earliestDate: earliest)], to: Self.client,
            at: Self.start)
        try await backend.access.entitle(Self.client, toOrderTypes: ["order.com.example.shop"])
        try await backend.access.entitle("com.example.other", toOrderTypes: ["order.com.example.other"])
        try await backend.access.setRestricted(.financialData, true, at: Self.start)
        try await backend.access.setRestricted(.orders, true, at: Self.start.addingTimeInterval(5))
        let granted = try #require(try await consent.accessSnapshot(digest: "a1", at: Self.start))
        #expect(granted.access == (try await backend.access.access(for: Self.client)))
        #expect(granted.access.status == .authorized && granted.access.accounts[second]?.earliestDate == earliest)
        #expect(granted.access.orderTypeIdentifiers == ["order.com.example.shop"])
        #expect(granted.restrictedSince == Self.start)  // financial data's, not the orders'

        #expect(try await consent.accessSnapshot(digest: "r1", at: Self.start) == nil)  // a refresh token
        #expect(try await consent.accessSnapshot(digest: "a1", at: Self.start.addingTimeInterval(3_600)) == nil)  // expired
        #expect(try await consent.accessSnapshot(digest: "unknown", at: Self.start) == nil)
        try await backend.access.revoke(Self.client, accounts: [], at: Self.start)
        #expect(try await consent.accessSnapshot(digest: "a1", at: Self.start) == nil)  // revoked with the access
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
        _ = try await consent.admitSignIn(Self.attempt("192.0.2.9"), throttle: SignInThrottle())
        try await consent.insertTrustedDevice(digest: "old device", at: Self.start)
        let policy = ConsentPolicy(
            sessions: SessionPolicy(idleTimeout: 60, absoluteLifetime: 3_600),
            signIn: SignInThrottle(window: 60, deviceLifetime: 60))
        let removed = try await consent.purgeExpired(at: later, policy: policy)
        #expect(removed == 5)
        #expect(try await consent.redeemCode(digest: "old", purpose: .pick, at: later) == nil)
        #expect(try await consent.redeemCode(digest: "new", purpose: .authorization, at: later) != nil)
        #expect(try await consent.accessToken(digest: "kept", at: later) != nil)
        #expect(try await consent.session(digest: "idle") == nil)
        #expect(try await consent.session(digest: "live") != nil)
        #expect(try await consent.clearAllSignInAttempts() == 0)
        #expect(try await !consent.useTrustedDevice(digest: "old device", unusedSince: .distantPast, at: later))
    }
}
