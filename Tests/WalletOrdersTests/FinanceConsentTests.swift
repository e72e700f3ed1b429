import Foundation
import TestArchiveTable
import Testing
import WalletOrders

/// The consent machinery through the facade, with a test clock: codes, PKCE, tokens, sign-in and
/// sessions, picks — what the pages and the token endpoint stand on.
@Suite("FinanceConsent: codes, tokens, sign-in, sessions and picks")
struct FinanceConsentTests {
    static let redirect = "https://budget.example/callback"
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

    struct Setup {
        let wallet: WalletStore
        let clock: TestClock
        let client: CreatedClient
        let logs: LogMessages

        var consent: FinanceConsent { wallet.consent }
        var credentials: ClientCredentials { ClientCredentials(id: client.client.id.rawValue, secret: client.secret) }

        func request(state: String = "s1") -> AuthorizationRequest {
            AuthorizationRequest(
                target: .init(clientID: client.client.id, redirectURI: FinanceConsentTests.redirect), state: state,
                codeChallenge: PKCE.challenge(for: FinanceConsentTests.verifier))
        }

        /// The code in an answer's location.
        func code(_ answer: AuthorizationAnswer) throws -> String {
            let items = URLComponents(string: answer.location)?.queryItems ?? []
            return try #require(items.first { $0.name == "code" }?.value)
        }

        /// The answer given at once for `request`, if any (the cached decision of this confidential
        /// client).
        func cached(_ request: AuthorizationRequest) async throws -> AuthorizationAnswer? {
            guard case .answered(let answer) = try await consent.cachedDecision(on: request, from: client.client) else {
                return nil
            }
            return answer
        }

        func redemption(_ code: String, verifier: String? = FinanceConsentTests.verifier) -> CodeRedemption {
            CodeRedemption(code: code, codeVerifier: verifier, redirectURI: FinanceConsentTests.redirect, client: credentials)
        }
    }

    static func setup(policy: ConsentPolicy = ConsentPolicy()) async throws -> Setup {
        let clock = TestClock()
        let logs = LogMessages()
        var configuration = try WalletFixtures.configuration(clock: clock, logs: logs)
        configuration.consent = policy
        let wallet = try WalletStore(path: WalletFixtures.path(), configuration: configuration)
        try await wallet.importFeed(WalletFixtures.feed())
        let client = try await wallet.consent.registerClient(name: "Budget", redirectURIs: [redirect], isPublic: false)
        return Setup(wallet: wallet, clock: clock, client: client, logs: logs)
    }

    @Test("Share: authorized with the accounts; the code gives tokens once; the tokens read exactly that")
    func share() async throws {
        let setup = try await Self.setup()
        let answer = try await setup.consent.share(
            [AccountGrant(accountID: WalletFixtures.checking)], answering: setup.request())
        #expect(answer.outcome == .code && answer.location.hasPrefix(Self.redirect + "?code=woc_"))
        #expect(answer.location.hasSuffix("&state=s1"))
        let tokens = try await setup.consent.exchange(setup.redemption(try setup.code(answer)))
        #expect(tokens.tokenType == "Bearer" && tokens.expiresIn == 3_600)
        let (client, expiresAt) = try await setup.consent.authenticate(accessToken: tokens.accessToken)
        #expect(client == setup.client.client.id && expiresAt == setup.clock.now().addingTimeInterval(3_600))
        let accounts = try await setup.wallet.financeStore(for: client).accounts(query: AccountQuery())
        #expect(accounts.map(\.id) == [WalletFixtures.checking])
        // The decision is cached: asked again, a new code and no sheet.
        let cached = try #require(try await setup.cached(setup.request(state: "s2")))
        #expect(cached.outcome == .code)
        // A second answer does not change the first: still authorized with the checking account only.
        let denied = try await setup.consent.deny(answering: setup.request())
        #expect(denied.outcome == .code)
        #expect(
            try await setup.wallet.access(for: client).accounts.keys.sorted { $0.uuidString < $1.uuidString } == [
                WalletFixtures.checking
            ])
    }

    @Test("Don't Allow is cached; Cancel records nothing")
    func denyAndCancel() async throws {
        let setup = try await Self.setup()
        let cancelled = setup.consent.cancel(answering: setup.request())
        #expect(cancelled.location == Self.redirect + "?error=access_denied&authorization_status=notDetermined&state=s1")
        #expect(try await setup.consent.authorizationStatus(of: setup.client.client.id) == .notDetermined)
        #expect(try await setup.cached(setup.request()) == nil)
        let denied = try await setup.consent.deny(answering: setup.request())
        #expect(denied.location == Self.redirect + "?error=access_denied&authorization_status=denied&state=s1")
        #expect(try await setup.cached(setup.request())?.outcome == .denied)
    }

    @Test("a code expires, is single-use even when the attempt fails, and a replay takes back its tokens, however late")
    func codes() async throws {
        let setup = try await Self.setup(policy: ConsentPolicy(codeLifetime: 30))
        let grants = [AccountGrant(accountID: WalletFixtures.card)]
        // Expired.
        var code = try setup.code(try await setup.consent.share(grants, answering: setup.request()))
        setup.clock.advance(days: 31.0 / 86_400)
        await #expect(throws: ConsentError.invalidGrant("the code is unknown or expired")) {
            try await setup.consent.exchange(setup.redemption(code))
        }
        // Without the verifier, then with it: the first attempt used the code up.
        code = try setup.code(try #require(try await setup.cached(setup.request())))
        await #expect(throws: ConsentError.self) { try await setup.consent.exchange(setup.redemption(code, verifier: nil)) }
        await #expect(throws: ConsentError.invalidGrant("the code was already used")) {
            try await setup.consent.exchange(setup.redemption(code))
        }
        // Replayed after a success: the tokens of the first exchange end.
        code = try setup.code(try #require(try await setup.cached(setup.request())))
        let tokens = try await setup.consent.exchange(setup.redemption(code))
        await #expect(throws: ConsentError.self) { try await setup.consent.exchange(setup.redemption(code)) }
        await #expect(throws: ConsentError.invalidToken) { try await setup.consent.authenticate(accessToken: tokens.accessToken) }
        await #expect(throws: ConsentError.self) {
            try await setup.consent.refresh(tokens.refreshToken, client: setup.credentials)
        }
        // Replayed 66 s after it was issued, the sweeper having run since it expired: still known
        // as used, and the tokens its exchange issued — rotated since — end.
        code = try setup.code(try #require(try await setup.cached(setup.request())))
        let late = try await setup.consent.exchange(setup.redemption(code))
        let rotated = try await setup.consent.refresh(late.refreshToken, client: setup.credentials)
        setup.clock.advance(days: 66.0 / 86_400)
        try await setup.consent.purgeExpired()
        _ = try await setup.consent.authenticate(accessToken: rotated.accessToken)
        await #expect(throws: ConsentError.invalidGrant("the code was already used")) {
            try await setup.consent.exchange(setup.redemption(code))
        }
        await #expect(throws: ConsentError.invalidToken) {
            try await setup.consent.authenticate(accessToken: rotated.accessToken)
        }
    }

    @Test("another client, another redirect URI, a wrong verifier or secret: refused")
    func bindings() async throws {
        let setup = try await Self.setup()
        let other = try await setup.consent.registerClient(name: "Other", redirectURIs: [Self.redirect], isPublic: false)
        let grants = [AccountGrant(accountID: WalletFixtures.card)]
        _ = try await setup.consent.share(grants, answering: setup.request())
        func fresh() async throws -> String {
            try setup.code(try #require(try await setup.cached(setup.request())))
        }
        var redemption = setup.redemption(try await fresh())
        redemption.client = ClientCredentials(id: other.client.id.rawValue, secret: other.secret)
        await #expect(throws: ConsentError.invalidGrant("the code was issued to another client")) {
            try await setup.consent.exchange(redemption)
        }
        redemption = setup.redemption(try await fresh())
        redemption.redirectURI = Self.redirect + "/other"
        await #expect(throws: ConsentError.self) { try await setup.consent.exchange(redemption) }
        redemption = setup.redemption(try await fresh(), verifier: String(repeating: "x", count: 43))
        await #expect(throws: ConsentError.invalidGrant("the code verifier does not match the code challenge")) {
            try await setup.consent.exchange(redemption)
        }
        for secret in [nil, "wcs_wrong", other.secret] {
            redemption = setup.redemption(try await fresh())
            redemption.client.secret = secret
            await #expect(throws: ConsentError.invalidClient) { try await setup.consent.exchange(redemption) }
        }
    }

    @Test("refresh rotates; the old refresh token, used again, ends the new ones too")
    func refresh() async throws {
        let setup = try await Self.setup()
        let answer = try await setup.consent.share([AccountGrant(accountID: WalletFixtures.card)], answering: setup.request())
        let first = try await setup.consent.exchange(setup.redemption(try setup.code(answer)))
        let second = try await setup.consent.refresh(first.refreshToken, client: setup.credentials)
        #expect(second.accessToken != first.accessToken && second.refreshToken != first.refreshToken)
        _ = try await setup.consent.authenticate(accessToken: second.accessToken)
        await #expect(throws: ConsentError.invalidGrant("the refresh token was already used")) {
            try await setup.consent.refresh(first.refreshToken, client: setup.credentials)
        }
        await #expect(throws: ConsentError.invalidToken) { try await setup.consent.authenticate(accessToken: second.accessToken) }
        await #expect(throws: ConsentError.self) {
            try await setup.consent.refresh(second.refreshToken, client: setup.credentials)
        }
    }

    @Test(
        "sign-in: a session, its expiry; attempts limited per address and network, never for everyone; a trusted browser's own limit"
    )
    func signIn() async throws {
        let policy = ConsentPolicy(
            sessions: SessionPolicy(idleTimeout: 600, absoluteLifetime: 3_600),
            signIn: SignInThrottle(window: 900, perAddress: 3, perNetwork: 6, perDevice: 2, slowdownAfter: 5, slowdownStep: 0.001)
        )
        let setup = try await Self.setup(policy: policy)
        await #expect(throws: ConsentError.wrongPassword) {
            try await setup.consent.signIn(password: "anything at all", from: "192.0.2.1")
        }
        try await setup.consent.setOwnerPassword("correct horse battery", cost: 4)
        let first = try await setup.consent.signIn(password: "correct horse battery", from: "192.0.2.1")
        let device = try #require(first.device)
        #expect(try await setup.consent.session(cookie: first.cookie.value) == first.session)
        setup.clock.advance(days: 599.0 / 86_400)
        #expect(try await setup.consent.session(cookie: first.cookie.value) != nil)  // and touched
        setup.clock.advance(days: 599.0 / 86_400)
        #expect(try await setup.consent.session(cookie: first.cookie.value) != nil)
        setup.clock.advance(days: 601.0 / 86_400)
        #expect(try await setup.consent.session(cookie: first.cookie.value) == nil)  // idle
        // Three attempts from one address: the fourth, even right, is refused unchecked.
        for _ in 0..<3 {
            await #expect(throws: ConsentError.wrongPassword) {
                try await setup.consent.signIn(password: "wrong password!", from: "198.51.100.1")
            }
        }
        await #expect(throws: ConsentError.signInThrottled(retryAfter: 900)) {
            try await setup.consent.signIn(password: "correct horse battery", from: "198.51.100.1")
        }
        // Three more from its network fill the network, not other networks.
        for _ in 0..<3 {
            await #expect(throws: ConsentError.wrongPassword) {
                try await setup.consent.signIn(password: "wrong password!", from: "198.51.100.2")
            }
        }
        await #expect(throws: ConsentError.signInThrottled(retryAfter: 900)) {
            try await setup.consent.signIn(password: "correct horse battery", from: "198.51.100.3")
        }
        // Many addresses in many networks, far past what used to lock everyone out: the right
        // password from yet another network is still checked (slower: each check waits a little).
        for network in 1...10 {
            for _ in 0..<3 {
                await #expect(throws: ConsentError.wrongPassword) {
                    try await setup.consent.signIn(password: "wrong password!", from: "203.0.\(network).9")
                }
            }
        }
        let stranger = try await setup.consent.signIn(password: "correct horse battery", from: "203.0.99.1")
        #expect(stranger.device != nil)
        // The browser that signed in first, from the full address, is a trusted device: counted
        // against itself, never the address — and past its own limit it is forgotten.
        let trusted = try await setup.consent.signIn(
            password: "correct horse battery", from: "198.51.100.1", device: device.value)
        #expect(trusted.device == nil)
        for _ in 0..<2 {
            await #expect(throws: ConsentError.wrongPassword) {
                try await setup.consent.signIn(password: "wrong password!", from: "198.51.100.1", device: device.value)
            }
        }
        await #expect(throws: ConsentError.signInThrottled(retryAfter: 900)) {
            try await setup.consent.signIn(password: "correct horse battery", from: "192.0.2.50", device: device.value)
        }
        // Forgotten: the same cookie is now a browser like any other, from an address with room.
        #expect(
            try await setup.consent.signIn(password: "correct horse battery", from: "192.0.2.50", device: device.value).device
                != nil)
        // `orders owner unlock` lifts every address's and network's limit at once.
        #expect(try await setup.consent.unlockSignIn() > 0)
        _ = try await setup.consent.signIn(password: "correct horse battery", from: "198.51.100.3")
        setup.clock.advance(days: 901.0 / 86_400)
        _ = try await setup.consent.signIn(password: "correct horse battery", from: "198.51.100.1")
        // A new password ends every session and trusts no browser.
        let other = try await setup.consent.signIn(password: "correct horse battery", from: "192.0.2.7")
        let kept = try #require(other.device)
        try await setup.consent.setOwnerPassword("another good password", cost: 4)
        #expect(try await setup.consent.session(cookie: other.cookie.value) == nil)
        #expect(
            try await setup.consent.signIn(password: "another good password", from: "192.0.2.7", device: kept.value).device != nil
        )
        #expect(!setup.logs.all.contains { $0.1.contains("correct horse") })
    }

    @Test("a pick: exactly the chosen transactions, once, nothing of them left; no access gained")
    func pick() async throws {
        let setup = try await Self.setup()
        let all = try await setup.consent.ownerTransactions(TransactionQuery())
        let chosen = Array(all.prefix(3).map(\.id).reversed())
        await #expect(throws: ConsentError.self) { try await setup.consent.sharePicked([], answering: setup.request()) }
        await #expect(throws: ConsentError.self) { try await setup.consent.sharePicked([UUID()], answering: setup.request()) }
        let answer = try await setup.consent.sharePicked(chosen + [chosen[0]], answering: setup.request())
        let code = try setup.code(answer)
        await #expect(throws: ConsentError.self) { try await setup.consent.exchange(setup.redemption(code)) }  // not a sheet code
        let picked = try await setup.consent.redeemPick(setup.redemption(code))
        #expect(picked.map(\.id) == chosen)
        await #expect(throws: ConsentError.invalidGrant("the code was already used")) {
            try await setup.consent.redeemPick(setup.redemption(code))
        }
        #expect(try await setup.consent.authorizationStatus(of: setup.client.client.id) == .notDetermined)
    }

    @Test("revoking a client ends its flows, tokens and access")
    func revocation() async throws {
        let setup = try await Self.setup()
        let answer = try await setup.consent.share([AccountGrant(accountID: WalletFixtures.card)], answering: setup.request())
        let tokens = try await setup.consent.exchange(setup.redemption(try setup.code(answer)))
        #expect(try await setup.consent.revokeClient(setup.client.client.id))
        await #expect(throws: ConsentError.invalidToken) { try await setup.consent.authenticate(accessToken: tokens.accessToken) }
        await #expect(throws: ConsentError.unknownClient) { try await setup.consent.client(for: setup.request().target) }
        #expect(try await setup.wallet.access(for: setup.client.client.id).status == .denied)
        #expect(try await setup.consent.revokeClient(setup.client.client.id) == false)
    }

    @Test("registration: taken and reserved ids, bad names and redirect URIs are refused")
    func registration() async throws {
        let setup = try await Self.setup()
        await #expect(throws: ConsentError.clientExists(setup.client.client.id.rawValue)) {
            try await setup.consent.registerClient(
                id: setup.client.client.id.rawValue, name: "Again", redirectURIs: [Self.redirect], isPublic: true)
        }
        for (id, name, redirect) in [
            ("apikey.0000", "Key", Self.redirect), ("bad id", "Bad", Self.redirect), (nil, "", Self.redirect),
            (nil, "Name\u{7}", Self.redirect), (nil, "App", "javascript:alert(1)"),
        ] as [(String?, String, String)] {
            await #expect(throws: ConsentError.self) {
                try await setup.consent.registerClient(id: id, name: name, redirectURIs: [redirect], isPublic: false)
            }
        }
        let publicClient = try await setup.consent.registerClient(
            name: "App", redirectURIs: ["com.example.app:/cb"], isPublic: true)
        #expect(publicClient.secret == nil && publicClient.client.id.rawValue.hasPrefix("client."))
        #expect(setup.client.secret?.hasPrefix("wcs_") == true)
    }
}
