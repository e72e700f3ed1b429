import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OrdersService
import TestArchiveTable
import Testing
import WalletOrders

/// The financial-data surface of the service as its documentation promises it: the pages'
/// headers and cookies, the token endpoint's RFC 6749 errors, the data API's statuses, paging and
/// history stream. (The flows a person walks are the browser suite's, Tests/Browser.)
@Suite("orders serve: financial data on the network (pages, OAuth, data API)")
struct FinanceWebTests {
    static let redirect = "https://budget.example/callback"
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let checking = "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B"
    static let card = "9C8B7A6F-5E4D-4C3B-8A29-1F0E9D8C7B6A"

    struct Fixture {
        let wallet: WalletStore
        let client: CreatedClient

        func service(
            trustedProxies: Set<String> = [], limits: ServiceLimits = .default, publicURL: String? = nil
        ) -> OrdersService {
            var logger = Logger(label: "test.serve")
            logger.logLevel = .error
            return OrdersService(
                wallet: wallet,
                configuration: .init(limits: limits, logger: logger, trustedProxies: trustedProxies, publicURL: publicURL))
        }

        /// Tokens for the client, sharing the checking account (as the sheet would).
        func tokens() async throws -> TokenResponse {
            let request = AuthorizationRequest(
                target: .init(clientID: client.client.id, redirectURI: FinanceWebTests.redirect), state: "s",
                codeChallenge: PKCE.challenge(for: FinanceWebTests.verifier))
            let answer = try await wallet.consent.share(
                [AccountGrant(accountID: try #require(UUID(uuidString: FinanceWebTests.checking)))], answering: request)
            let code = try #require(URLComponents(string: answer.location)?.queryItems?.first { $0.name == "code" }?.value)
            return try await wallet.consent.exchange(
                CodeRedemption(
                    code: code, codeVerifier: FinanceWebTests.verifier, redirectURI: FinanceWebTests.redirect,
                    client: ClientCredentials(id: client.client.id.rawValue, secret: client.secret)))
        }
    }

    static func fixture(
        availability: DataAvailability = DataAvailability(), policy: ConsentPolicy = ConsentPolicy()
    ) async throws -> Fixture {
        let directory = try TemporaryDirectory.make("finance-web")
        let configuration = WalletConfiguration(
            availability: availability,
            history: HistoryConfiguration(batchSize: 500, pollInterval: .milliseconds(20)), consent: policy,
            logger: Logger(label: "test"))
        let wallet = try WalletStore(path: directory.appendingPathComponent("store.sqlite").path, configuration: configuration)
        if availability.isDataAvailable(.financialData) {
            try await wallet.importFeed(
                Data(contentsOf: TestArchiveTable.packageRoot.appendingPathComponent("Samples/finance-feed.json")))
            try await wallet.consent.setOwnerPassword("correct horse battery", cost: 4)
        }
        let client =
            availability.isDataAvailable(.financialData)
            ? try await wallet.consent.registerClient(name: "Budget", redirectURIs: [redirect], isPublic: false)
            : CreatedClient(
                client: RegisteredClient(id: "com.example.none", name: "", redirectURIs: [], isPublic: true, createdAt: Date()),
                secret: nil)
        return Fixture(wallet: wallet, client: client)
    }

    static func form(_ fields: [(String, String)]) -> ByteBuffer {
        ByteBuffer(string: fields.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&"))
    }

    static let formType: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test("every page: a CSP without unsafe-inline that no origin may frame, no referrer, no caching, no sniffing")
    func pageHeaders() async throws {
        let fixture = try await Self.fixture()
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let authorize = "/finance/authorize?client_id=\(fixture.client.client.id)&redirect_uri=https://evil.example/"
            for path in ["/finance/sign-in", authorize, "/finance/pick?client_id=x"] {
                let response = try await client.executeRequest(uri: path, method: .get, headers: [:], body: nil)
                let policy = try #require(response.headers[.contentSecurityPolicy], "\(path)")
                #expect(policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe-inline"), "\(path)")
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"), "\(path)")
                #expect(response.headers[.cacheControl] == "no-store", "\(path)")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(path)")
                #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY", "\(path)")
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(path)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(path)")
            }
            // The unregistered redirect URI: a 400 page, never a redirect.
            let refused = try await client.executeRequest(uri: authorize, method: .get, headers: [:], body: nil)
            #expect(refused.status == .badRequest && refused.headers[.location] == nil)
            #expect(String(buffer: refused.body).contains("consent.unknownClient"))
            // The sign-in form's cookie: HttpOnly, SameSite=Strict, the whole site; not Secure over HTTP.
            let signIn = try await client.executeRequest(uri: "/finance/sign-in", method: .get, headers: [:], body: nil)
            let cookie = try #require(signIn.headers[.setCookie])
            #expect(cookie.hasPrefix("orders_signin=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            #expect(cookie.contains("Path=/") && !cookie.contains("Secure"))
            // Assets: their own types, cached for good under a versioned name.
            for (path, type) in [
                ("/finance/static/pages.css", "text/css; charset=utf-8"),
                ("/finance/static/pages.js", "text/javascript; charset=utf-8"),
                ("/finance/static/icon.svg", "image/svg+xml"),
            ] {
                let asset = try await client.executeRequest(uri: path, method: .get, headers: [:], body: nil)
                #expect(asset.status == .ok && asset.headers[.contentType] == type)
                #expect(asset.headers[.cacheControl]?.contains("immutable") == true)
            }
        }
    }

    @Test("a form without its token is 403 and changes nothing; a page needing the owner sends to sign-in, or first home")
    func formsAndSignIn() async throws {
        let fixture = try await Self.fixture()
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let page = try await client.executeRequest(uri: "/finance/sign-in", method: .get, headers: [:], body: nil)
            let cookie = try #require(page.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let token = String(cookie.dropFirst("orders_signin=".count))
            // Without the sign-in token, or with another: refused before the password is looked at.
            for fields in [
                [("password", "correct horse battery")], [("password", "correct horse battery"), ("csrf_token", "x")],
            ] {
                var headers = Self.formType
                headers[.cookie] = cookie
                let forged = try await client.executeRequest(
                    uri: "/finance/sign-in", method: .post, headers: headers, body: Self.form(fields))
                #expect(forged.status == .forbidden && forged.headers[.setCookie] == nil)
                #expect(String(buffer: forged.body).contains("consent.forgedRequest"))
            }
            var headers = Self.formType
            headers[.cookie] = cookie
            let signedIn = try await client.executeRequest(
                uri: "/finance/sign-in", method: .post, headers: headers,
                body: Self.form([("password", "correct horse battery"), ("csrf_token", token), ("next", "https://evil.example/")])
            )
            #expect(signedIn.status == .seeOther && signedIn.headers[.location] == "/finance/settings")  // never off-site
            let session = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("orders_session=") })
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Strict") && session.contains("Max-Age=43200"))

            // Settings without a session: to sign-in, and back.
            let anonymous = try await client.executeRequest(uri: "/finance/settings", method: .get, headers: [:], body: nil)
            #expect(
                anonymous.status == .seeOther && anonymous.headers[.location] == "/finance/sign-in?next=%2Ffinance%2Fsettings")
            // From another site without cookies: a page that reloads itself from this site first.
            let crossSite = try await client.executeRequest(
                uri: "/finance/settings", method: .get, headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"], body: nil)
            #expect(
                crossSite.status == .ok
                    && String(buffer: crossSite.body).contains(#"http-equiv="refresh" content="0;url=/finance/settings""#))
        }
    }

    /// The sign-in form's cookie and token, for posting to it.
    static func signInForm(_ client: some TestClientProtocol) async throws -> (cookie: String, token: String) {
        let page = try await client.executeRequest(uri: "/finance/sign-in", method: .get, headers: [:], body: nil)
        let cookie = try #require(page.headers[.setCookie]?.split(separator: ";").first.map(String.init))
        return (cookie, String(cookie.dropFirst("orders_signin=".count)))
    }

    static func signIn(
        _ client: some TestClientProtocol, _ form: (cookie: String, token: String), password: String, device: String? = nil
    ) async throws -> TestResponse {
        var headers = Self.formType
        headers[.cookie] = form.cookie + (device.map { "; orders_device=\($0)" } ?? "")
        return try await client.executeRequest(
            uri: "/finance/sign-in", method: .post, headers: headers,
            body: Self.form([("password", password), ("csrf_token", form.token)]))
    }

    /// Signs the owner in through the form; the session cookie (`name=value`).
    static func ownerCookie(_ client: some TestClientProtocol) async throws -> String {
        let form = try await Self.signInForm(client)
        let signedIn = try await Self.signIn(client, form, password: "correct horse battery")
        let session = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("orders_session=") })
        return String(try #require(session.split(separator: ";").first))
    }

    /// The query of a `Location` URL, as a dictionary.
    static func query(_ location: String?) -> [String: String] {
        Dictionary(
            (URLComponents(string: location ?? "")?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    }

    @Test(
        "a public client authorized before gets a one-tap confirmation, never a code without a click; a confidential one the cached code; every answer carries iss"
    )
    func publicClientsConfirm() async throws {
        let fixture = try await Self.fixture()
        let receipts = try await fixture.wallet.consent.registerClient(
            name: "Receipts", redirectURIs: ["com.example.receipts:/callback"], isPublic: true)
        try await fixture.wallet.grant(
            [AccountGrant(accountID: try #require(UUID(uuidString: Self.checking)))], to: receipts.client.id)
        _ = try await fixture.tokens()  // the confidential client, authorized as well
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let cookie = try await Self.ownerCookie(client)
            let challenge = PKCE.challenge(for: "attacker-chosen-verifier-attacker-chosen-verifier-1234")
            func authorize(_ id: String, _ redirect: String, state: String) async throws -> TestResponse {
                try await client.executeRequest(
                    uri: "/finance/authorize?response_type=code&client_id=\(id)&redirect_uri=\(PercentEncoding.encode(redirect))"
                        + "&state=\(state)&code_challenge=\(challenge)&code_challenge_method=S256",
                    method: .get, headers: [.cookie: cookie, HTTPField.Name("Sec-Fetch-Site")!: "same-origin"], body: nil)
            }
            // The public client: a page, not a redirect with a code.
            let asked = try await authorize(receipts.client.id.rawValue, "com.example.receipts:/callback", state: "p1")
            let page = String(buffer: asked.body)
            #expect(asked.status == .ok && asked.headers[.location] == nil, "\(asked.status)")
            #expect(page.contains("Continue Sharing with “Receipts”?") && page.contains("Everyday"))
            // Continue (with the page's token): now the code, and the issuer.
            let token = try #require(page.range(of: #"name="csrf_token" value=""#).map { page[$0.upperBound...].prefix(64) })
            var headers = Self.formType
            headers[.cookie] = cookie
            let continued = try await client.executeRequest(
                uri: "/finance/authorize", method: .post, headers: headers,
                body: Self.form([
                    ("csrf_token", String(token)), ("decision", "continue"), ("response_type", "code"),
                    ("client_id", receipts.client.id.rawValue), ("redirect_uri", "com.example.receipts:/callback"),
                    ("state", "p1"),
                    ("code_challenge", challenge), ("code_challenge_method", "S256"),
                ]))
            let answer = Self.query(continued.headers[.location])
            #expect(continued.status == .seeOther && answer["code"]?.hasPrefix("woc_") == true && answer["state"] == "p1")
            #expect(answer["iss"] == "http://localhost")
            // The confidential client: the cached code at once, with iss.
            let cached = try await authorize(fixture.client.client.id.rawValue, Self.redirect, state: "c1")
            let cachedAnswer = Self.query(cached.headers[.location])
            #expect(cached.status == .seeOther && cachedAnswer["code"] != nil && cachedAnswer["iss"] == "http://localhost")
            // An error response carries it too.
            let malformed = try await client.executeRequest(
                uri:
                    "/finance/authorize?client_id=\(fixture.client.client.id)&redirect_uri=\(PercentEncoding.encode(Self.redirect))&state=e1",
                method: .get, headers: [.cookie: cookie], body: nil)
            let error = Self.query(malformed.headers[.location])
            #expect(error["error"] == "invalid_request" && error["iss"] == "http://localhost" && error["state"] == "e1")
        }
    }

    @Test("the OAuth endpoints docs/deployment.md and docs/finance-web.md name are the served metadata's (issue 53, item 8)")
    func documentedEndpoints() async throws {
        let fixture = try await Self.fixture()
        let app = fixture.service(publicURL: "https://wallet.example").application(host: "127.0.0.1", port: 0)
        let served = try await app.test(.router) { client in
            let metadata = try await client.executeRequest(
                uri: "/.well-known/oauth-authorization-server", method: .get, headers: [:], body: nil)
            let document = try Self.json(metadata)
            return Set(
                ["authorization_endpoint", "token_endpoint", "revocation_endpoint"].compactMap {
                    (document[$0] as? String)?.replacingOccurrences(of: "https://wallet.example", with: "")
                })
        }
        #expect(served.count == 3)
        for document in ["docs/deployment.md", "docs/finance-web.md"] {
            let text = try String(
                contentsOf: TestArchiveTable.packageRoot.appendingPathComponent(document), encoding: .utf8)
            // Every `/finance/<name>` the document names that is not the data API, a page or a picker.
            let named = Set(text.matches(of: /(\/finance\/[a-z-]+)(?![a-z\/-])/).map { String($0.output.1) })
            let endpoints = named.filter {
                ["/finance/authorize", "/finance/authorization", "/finance/token", "/finance/revoke"].contains($0)
            }
            #expect(endpoints.isSubset(of: served), "\(document) names \(endpoints.subtracting(served))")
            #expect(served.isSubset(of: named), "\(document) does not name \(served.subtracting(named))")
        }
    }

    @Test(
        "RFC 8414 metadata; RFC 7009 revocation (a refresh token ends its grant, another client's token nothing); a 401 without credentials names no error"
    )
    func oauthConventions() async throws {
        let fixture = try await Self.fixture()
        let tokens = try await fixture.tokens()
        let app = fixture.service(publicURL: "https://wallet.example:8443/").application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let metadata = try await client.executeRequest(
                uri: "/.well-known/oauth-authorization-server", method: .get, headers: [:], body: nil)
            let document = try Self.json(metadata)
            #expect(metadata.status == .ok && document["issuer"] as? String == "https://wallet.example:8443")
            #expect(document["authorization_endpoint"] as? String == "https://wallet.example:8443/finance/authorize")
            #expect(document["token_endpoint"] as? String == "https://wallet.example:8443/finance/token")
            #expect(document["revocation_endpoint"] as? String == "https://wallet.example:8443/finance/revoke")
            #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(document["authorization_response_iss_parameter_supported"] as? Bool == true)
            #expect(document["grant_types_supported"] as? [String] == ["authorization_code", "refresh_token"])

            let bearer: HTTPFields = [.authorization: "Bearer \(tokens.accessToken)"]
            #expect(
                try await client.executeRequest(uri: "/finance/v1/accounts", method: .get, headers: bearer, body: nil).status
                    == .ok)
            // No credentials: 401, a challenge without an error code (RFC 6750 §3.1).
            let bare = try await client.executeRequest(uri: "/finance/v1/accounts", method: .get, headers: [:], body: nil)
            #expect(bare.status == .unauthorized && bare.headers[.wwwAuthenticate] == #"Bearer realm="finance""#)
            let wrong = try await client.executeRequest(
                uri: "/finance/v1/accounts", method: .get, headers: [.authorization: "Bearer woa_nothing"], body: nil)
            #expect(wrong.headers[.wwwAuthenticate] == #"Bearer realm="finance", error="invalid_token""#)

            let basic =
                "Basic " + Data("\(fixture.client.client.id.rawValue):\(fixture.client.secret ?? "")".utf8).base64EncodedString()
            var headers = Self.formType
            headers[.authorization] = basic
            func revoke(_ fields: [(String, String)], headers: HTTPFields = headers) async throws -> TestResponse {
                try await client.executeRequest(uri: "/finance/revoke", method: .post, headers: headers, body: Self.form(fields))
            }
            // Unknown and malformed tokens: 200, nothing said.
            #expect(try await revoke([("token", "wor_" + String(repeating: "A", count: 43))]).status == .ok)
            #expect(try await revoke([("token", "anything")]).status == .ok)
            #expect(try await revoke([]).status == .badRequest)
            // Another client cannot end this client's token.
            let other = try await fixture.wallet.consent.registerClient(
                name: "Other", redirectURIs: ["https://other.example/cb"], isPublic: false)
            var otherHeaders = Self.formType
            otherHeaders[.authorization] =
                "Basic " + Data("\(other.client.id.rawValue):\(other.secret ?? "")".utf8).base64EncodedString()
            #expect(try await revoke([("token", tokens.refreshToken)], headers: otherHeaders).status == .ok)
            #expect(
                try await client.executeRequest(uri: "/finance/v1/accounts", method: .get, headers: bearer, body: nil).status
                    == .ok)
            // Its own refresh token: the whole grant ends, the access token with it.
            let revoked = try await revoke([("token", tokens.refreshToken), ("token_type_hint", "refresh_token")])
            #expect(revoked.status == .ok && revoked.headers[.cacheControl] == "no-store")
            #expect(
                try await client.executeRequest(uri: "/finance/v1/accounts", method: .get, headers: bearer, body: nil).status
                    == .unauthorized)
            // Without client authentication: RFC 6749's invalid_client.
            var anonymous = Self.formType
            anonymous[.authorization] = "Basic " + Data("\(fixture.client.client.id.rawValue):wrong".utf8).base64EncodedString()
            #expect(try await revoke([("token", tokens.accessToken)], headers: anonymous).status == .unauthorized)
        }
    }

    @Test("client authentication by password on /authorization is rate-limited per address, as the token endpoint is")
    func clientAuthenticationLimited() async throws {
        let fixture = try await Self.fixture()
        // The token endpoint's limiter, with a refill too slow to matter however slowly the
        // requests below are answered beside the rest of the suite.
        var limits = ServiceLimits.default
        limits.tokenRequestRate = Rate(burst: 10, perSecond: 0.001)
        let app = fixture.service(limits: limits).application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let basic = "Basic " + Data("\(fixture.client.client.id.rawValue):wcs_wrong".utf8).base64EncodedString()
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<15 {
                statuses.append(
                    try await client.executeRequest(
                        uri: "/finance/v1/authorization", method: .get, headers: [.authorization: basic], body: nil
                    ).status)
            }
            // The burst is refused 401 invalid_client, then 429 with Retry-After.
            #expect(statuses.prefix(10).allSatisfy { $0 == .unauthorized })
            #expect(statuses.suffix(5).allSatisfy { $0 == .tooManyRequests }, "\(statuses.map(\.code))")
            let limited = try await client.executeRequest(
                uri: "/finance/v1/authorization", method: .get, headers: [.authorization: basic], body: nil)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] != nil)
        }
    }

    @Test("30 wrong sign-ins at once from one address: 5 passwords checked, 25 refused unchecked (counted when admitted)")
    func signInsAtOnce() async throws {
        let fixture = try await Self.fixture()
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let form = try await Self.signInForm(client)
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String).self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        let answer = try await Self.signIn(client, form, password: "not the password at all")
                        return (answer.status, String(buffer: answer.body))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let checked = answers.filter { $0.0 == .ok && $0.1.contains("The password is not correct.") }
            let refused = answers.filter { $0.0 == .tooManyRequests && $0.1.contains("Too many failed sign-ins") }
            #expect(checked.count == 5 && refused.count == 25, "\(answers.map(\.0.code))")
        }
    }

    @Test("a browser that signed in keeps signing in from an address past its limit; the address itself stays refused")
    func trustedBrowser() async throws {
        let fixture = try await Self.fixture()
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let form = try await Self.signInForm(client)
            let first = try await Self.signIn(client, form, password: "correct horse battery")
            #expect(first.status == .seeOther)
            let set = first.headers[values: .setCookie]
            let device = try #require(set.first { $0.hasPrefix("orders_device=") })
            #expect(device.contains("HttpOnly") && device.contains("SameSite=Strict") && device.contains("Max-Age=31536000"))
            let token = String(try #require(device.split(separator: ";").first).dropFirst("orders_device=".count))
            for _ in 0..<5 {
                #expect(try await Self.signIn(client, form, password: "a wrong password").status == .ok)
            }
            // This address is full: a browser without the cookie is refused, the trusted one is not.
            #expect(try await Self.signIn(client, form, password: "correct horse battery").status == .tooManyRequests)
            let again = try await Self.signIn(client, form, password: "correct horse battery", device: token)
            #expect(again.status == .seeOther)
            #expect(!again.headers[values: .setCookie].contains { $0.hasPrefix("orders_device=") }, "no new device cookie")
            // And `orders owner unlock` (here its library call) lets the address in again.
            try await fixture.wallet.consent.unlockSignIn()
            #expect(try await Self.signIn(client, form, password: "correct horse battery").status == .seeOther)
        }
    }

    @Test("the token endpoint answers RFC 6749's errors: grant type, client authentication, repeated parameters")
    func tokenErrors() async throws {
        let fixture = try await Self.fixture()
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        let id = fixture.client.client.id.rawValue
        let secret = try #require(fixture.client.secret)
        let basic = "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
        try await app.test(.router) { client in
            func post(_ fields: [(String, String)], authorization: String? = nil) async throws -> TestResponse {
                var headers = Self.formType
                headers[.authorization] = authorization
                return try await client.executeRequest(
                    uri: "/finance/token", method: .post, headers: headers, body: Self.form(fields))
            }
            let unsupported = try await post([("grant_type", "password")], authorization: basic)
            #expect(unsupported.status == .badRequest)
            #expect(try Self.json(unsupported)["error"] as? String == "unsupported_grant_type")
            #expect(unsupported.headers[.cacheControl] == "no-store")
            let anonymous = try await post([("grant_type", "authorization_code"), ("code", "woc_x")])
            #expect(anonymous.status == .unauthorized)
            #expect(try Self.json(anonymous)["error"] as? String == "invalid_client")
            #expect(anonymous.headers[.wwwAuthenticate] == #"Basic realm="finance""#)
            let wrongSecret = try await post(
                [("grant_type", "authorization_code"), ("code", "woc_x")],
                authorization: "Basic " + Data("\(id):wcs_wrong".utf8).base64EncodedString())
            #expect(wrongSecret.status == .unauthorized)
            let mismatch = try await post(
                [("grant_type", "authorization_code"), ("client_id", "com.example.other"), ("code", "woc_x")],
                authorization: basic)
            #expect(mismatch.status == .badRequest)
            #expect(try Self.json(mismatch)["error"] as? String == "invalid_request")
            let twice = try await post([("grant_type", "refresh_token"), ("grant_type", "refresh_token")], authorization: basic)
            #expect(try Self.json(twice)["error"] as? String == "invalid_request")
            let unknownCode = try await post(
                [
                    ("grant_type", "authorization_code"), ("code", "woc_unknown"), ("code_verifier", Self.verifier),
                    ("redirect_uri", Self.redirect),
                ],
                authorization: basic)
            #expect(unknownCode.status == .badRequest)
            #expect(try Self.json(unknownCode)["error"] as? String == "invalid_grant")
            // Not a form: the service's own 415.
            let json = try await client.executeRequest(
                uri: "/finance/token", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: "{}"))
            #expect(json.status == .unsupportedMediaType)
        }
    }

    @Test("the data API: 401 with Bearer, 404 for an account not shared, cursors, a bad history token, restriction")
    func dataAPI() async throws {
        let fixture = try await Self.fixture()
        let tokens = try await fixture.tokens()
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        let bearer: HTTPFields = [.authorization: "Bearer \(tokens.accessToken)"]
        try await app.test(.router) { client in
            func get(_ path: String, _ headers: HTTPFields? = nil) async throws -> TestResponse {
                try await client.executeRequest(uri: path, method: .get, headers: headers ?? bearer, body: nil)
            }
            let none = try await get("/finance/v1/accounts", [:])
            #expect(none.status == .unauthorized)
            // No credentials at all: a challenge without an error code (RFC 6750 §3.1; issue 40).
            #expect(none.headers[.wwwAuthenticate] == #"Bearer realm="finance""#)
            #expect((try Self.json(none)["error"] as? [String: Any])?["code"] as? String == "consent.invalidToken")
            let accounts = try Self.json(try await get("/finance/v1/accounts"))["accounts"] as? [[String: Any]]
            #expect(accounts?.compactMap { $0["id"] as? String } == [Self.checking])
            let hidden = try await get("/finance/v1/transactions?account=\(Self.card)")
            #expect(hidden.status == .notFound)
            #expect((try Self.json(hidden)["error"] as? [String: Any])?["code"] as? String == "access.unknownAccount")
            // Pages of two, to the end, then a cursor used with another query.
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try Self.json(
                    try await get("/finance/v1/transactions?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")))
                seen += (page["transactions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            let all = try Self.json(try await get("/finance/v1/transactions?limit=500"))["transactions"] as? [[String: Any]]
            #expect(seen == all?.compactMap { $0["id"] as? String } && seen.count > 2)
            let page = try Self.json(try await get("/finance/v1/transactions?limit=1"))
            let other = try await get(
                "/finance/v1/transactions?limit=1&status=pending&cursor=\(page["nextCursor"] as? String ?? "")")
            #expect(other.status == .badRequest)
            let badToken = try await get("/finance/v1/history/accounts?since=bm90IGEgdG9rZW4%3D")
            #expect(badToken.status == .badRequest)
            #expect((try Self.json(badToken)["error"] as? [String: Any])?["code"] as? String == "finance.historyTokenInvalid")
            let status = try Self.json(try await get("/finance/v1/authorization"))
            #expect(status["status"] as? String == "authorized")
            try await fixture.wallet.setRestricted(.financialData, true)
            let restricted = try await get("/finance/v1/accounts")
            #expect(restricted.status == .serviceUnavailable)
            #expect((try Self.json(restricted)["error"] as? [String: Any])?["code"] as? String == "finance.dataRestricted")
        }
    }

    @Test("a deployment without financial data: the pages and the API say so (501)")
    func unavailable() async throws {
        let fixture = try await Self.fixture(availability: DataAvailability(available: [.orders]))
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let page = try await client.executeRequest(
                uri: "/finance/authorize?client_id=com.example.none&redirect_uri=https://x.example/cb", method: .get,
                headers: [:],
                body: nil)
            #expect(page.status == .notImplemented && String(buffer: page.body).contains("access.dataTypeUnavailable"))
            let token = try await client.executeRequest(
                uri: "/finance/token", method: .post, headers: Self.formType,
                body: Self.form([("grant_type", "authorization_code"), ("client_id", "com.example.none"), ("code", "woc_x")]))
            #expect(token.status == .notImplemented)
            #expect((try Self.json(token)["error"] as? [String: Any])?["code"] as? String == "access.dataTypeUnavailable")
        }
    }

    @Test("history as Server-Sent Events: the catch-up, a change as it is imported, and resuming from Last-Event-ID")
    func historyEvents() async throws {
        let fixture = try await Self.fixture()
        let tokens = try await fixture.tokens()
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.testLive { client in
            let port = try #require(client.port)
            let request =
                "GET /finance/v1/history/accounts/\(Self.checking)/transactions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(tokens.accessToken)\r\nAccept: text/event-stream\r\n"
            let stream = try RawConnection(port: port)
            stream.send(request + "\r\n")
            let opening = try #require(await RawConnection.offThread { stream.read(until: "event: changes\n") })
            #expect(opening.contains("200 OK") && opening.contains("text/event-stream"))
            // "\r\n" is one Character: lines are split on bytes.
            let lines = opening.utf8.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
            let id = try #require(lines.last { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) })
            _ = try #require(await RawConnection.offThread { stream.read(until: "\n\n") })
            // A change while the stream is open arrives as the next event.
            var feed =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: TestArchiveTable.packageRoot.appendingPathComponent("Samples/finance-feed.json")))
                as? [String: Any] ?? [:]
            var transactions = feed["transactions"] as? [[String: Any]] ?? []
            var added = transactions[0]
            added["id"] = "A1000000-0000-4000-8000-0000000000EE"
            added["transactionDescription"] = "Streamed"
            transactions = [added]
            feed = ["transactions": transactions]
            try await fixture.wallet.importFeed(try JSONSerialization.data(withJSONObject: feed))
            let next = try #require(await RawConnection.offThread { stream.read(until: "Streamed") })
            #expect(next.contains("A1000000-0000-4000-8000-0000000000EE"))
            // Reconnecting with the first event's id: that change again, and not the catch-up.
            let resumed = try RawConnection(port: port)
            resumed.send(request + "Last-Event-ID: \(id)\r\n\r\n")
            let again = try #require(await RawConnection.offThread { resumed.read(until: "Streamed") })
            #expect(!again.contains("A1000000-0000-4000-8000-000000000001"))
        }
    }

    @Test(
        "a path a browser reads as another host (//, /\\, /%2F, /%5C) is refused before any page: never a bounce off-site",
        arguments: [
            "//finance/settings", "/\\finance/settings", "/%2Ffinance/settings", "/%5cfinance/settings", "//console/orders",
        ])
    func pathsNamingAnotherHost(_ path: String) async throws {
        let fixture = try await Self.fixture()
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.testLive { client in
            let connection = try RawConnection(port: try #require(client.port))
            // From another site, without cookies: the request that used to get the bounce page.
            connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\n\r\n")
            let answer = try #require(await connection.response())
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect(answer.status == 404 && body.contains("request.noRoute"), "\(answer.status) \(body.prefix(200))")
            #expect(!body.contains("url="), "no page that sends the browser anywhere")
            // The same page through its one spelling still bounces home, to a path here.
            let local = try RawConnection(port: try #require(client.port))
            local.send("GET /finance/settings HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\n\r\n")
            let bounce = try #require(await local.response())
            #expect(bounce.status == 200 && String(decoding: bounce.body, as: UTF8.self).contains("url=/finance/settings"))
        }
    }

    @Test("behind a trusted proxy: its client address and https; from anyone else the headers are ignored")
    func trustedProxy() async throws {
        let fixture = try await Self.fixture(policy: ConsentPolicy(signIn: SignInThrottle(perAddress: 1)))
        let app = fixture.service(trustedProxies: ["127.0.0.2"]).application(host: "127.0.0.1", port: 0)
        try await app.testLive { client in
            let port = try #require(client.port)
            @Sendable func signIn(
                from source: String, forwardedFor: String, password: String
            ) throws -> (status: Int, headers: [String: String]) {
                let page = try RawConnection(port: port, from: source)
                page.send(
                    "GET /finance/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: \(forwardedFor)\r\nX-Forwarded-Proto: https\r\n\r\n"
                )
                let form = try #require(page.response())
                let cookie = try #require(form.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
                let token = String(cookie.split(separator: "=")[1])
                let body = "csrf_token=\(token)&password=\(PercentEncoding.encode(password))"
                page.send(
                    "POST /finance/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: \(forwardedFor)\r\n"
                        + "X-Forwarded-Proto: https\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
                let answer = try #require(page.response())
                return (answer.status, answer.headers.merging(["form-cookie": cookie]) { $1 })
            }
            // Through the proxy: the forwarded address is throttled, not the proxy's, and cookies are Secure.
            func signInOffThread(
                from source: String, forwardedFor: String, password: String
            ) async throws -> (status: Int, headers: [String: String]) {
                try await RawConnection.offThread {
                    Result { try signIn(from: source, forwardedFor: forwardedFor, password: password) }
                }.get()
            }
            let proxied = try await signInOffThread(
                from: "127.0.0.2", forwardedFor: "198.51.100.7", password: "wrong password here")
            #expect(proxied.headers["form-cookie"]?.hasPrefix("__Host-orders_signin=") == true)
            #expect(
                try await signInOffThread(from: "127.0.0.2", forwardedFor: "198.51.100.7", password: "correct horse battery")
                    .status == 429)
            let other = try await signInOffThread(
                from: "127.0.0.2", forwardedFor: "198.51.100.8", password: "correct horse battery")
            #expect(other.status == 303 && other.headers["set-cookie"]?.contains("Secure") == true)
            // Not a trusted peer: its X-Forwarded-* count for nothing.
            let direct = try await signInOffThread(
                from: "127.0.0.3", forwardedFor: "198.51.100.9", password: "wrong password here")
            #expect(direct.headers["form-cookie"]?.hasPrefix("orders_signin=") == true)
            #expect(
                try await signInOffThread(from: "127.0.0.3", forwardedFor: "198.51.100.10", password: "correct horse battery")
                    .status == 429)
        }
    }
}
