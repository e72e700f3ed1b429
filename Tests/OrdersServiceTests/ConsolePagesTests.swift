import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OrderStorage
import OrdersService
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders
import WalletPrimitives

@Suite("The operator console: orders, versions and their diff, devices, the push outbox, API keys, the upload form")
struct ConsolePagesTests {
    /// Signs the owner in through the sign-in form; the session cookie's `name=value`.
    static func signIn(_ client: some TestClientProtocol) async throws -> String {
        let form = try await client.executeRequest(uri: "/finance/sign-in", method: .get, headers: [:], body: nil)
        let signInCookie = try #require(form.headers[.setCookie]?.split(separator: ";").first.map(String.init))
        let token = String(signInCookie.split(separator: "=", maxSplits: 1)[1])
        let body = "csrf_token=\(token)&password=\(PercentEncoding.encode("correct horse battery"))&next=%2Fconsole%2Forders"
        let signedIn = try await client.executeRequest(
            uri: "/finance/sign-in", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: signInCookie], body: ByteBuffer(string: body))
        #expect(signedIn.status == .seeOther && signedIn.headers[.location] == "/console/orders")
        return try #require(signedIn.headers[.setCookie]?.split(separator: ";").first.map(String.init))
    }

    @Test("signed out: to sign-in and back; signed in: the orders, a search, an order with its versions")
    func console() async throws {
        let fixture = try await ServiceFixture.make()
        try await fixture.wallet.consent.setOwnerPassword("correct horse battery", cost: 4)
        _ = try await fixture.wallet.orders.saveOrder(signedArchive: fixture.shopV2)
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let out = try await client.executeRequest(uri: "/console/orders", method: .get, headers: [:], body: nil)
            #expect(out.status == .seeOther && out.headers[.location] == "/finance/sign-in?next=%2Fconsole%2Forders")
            // The sign-in page says what the owner signs in to: the console, not financial data.
            let form = try await client.executeRequest(
                uri: "/finance/sign-in?next=%2Fconsole%2Forders", method: .get, headers: [:], body: nil)
            #expect(String(buffer: form.body).contains("to use the operator console: orders, API keys and pushes."))
            #expect(!String(buffer: form.body).contains("financial data"))
            let cookie: HTTPFields = [.cookie: try await Self.signIn(client)]
            let all = try await client.executeRequest(uri: "/console/orders", method: .get, headers: cookie, body: nil)
            #expect(all.status == .ok)
            let list = String(buffer: all.body)
            #expect(list.contains("1–3 of 3") && list.contains(">ORDER-1</a>") && list.contains(">OTHER-1</a>"))
            let searched = try await client.executeRequest(
                uri: "/console/orders?q=other", method: .get, headers: cookie, body: nil)
            #expect(String(buffer: searched.body).contains("1–1 of 1"))
            #expect(!String(buffer: searched.body).contains(">ORDER-1</a>"))
            let order = try await client.executeRequest(
                uri: "/console/orders/\(ServiceFixture.shopType)/ORDER-1", method: .get, headers: cookie, body: nil)
            #expect(order.status == .ok)
            let page = String(buffer: order.body)
            #expect(page.contains("<article class=\"order\"") && page.contains("2026-02-01T08:00:00Z (current)"))
            #expect(page.contains("2026-01-15T09:30:00Z"))
            #expect(order.headers[.contentSecurityPolicy]?.contains("img-src 'self' data:") == true)
            #expect(order.headers[.cacheControl] == "no-store")
            // The two versions' order.json, field by field.
            let versions = try await fixture.wallet.orders.history(
                FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1"))
            let diff = try await client.executeRequest(
                uri:
                    "/console/orders/\(ServiceFixture.shopType)/ORDER-1/diff?from=\(versions[0].archiveSHA256)&to=\(versions[1].archiveSHA256)",
                method: .get, headers: cookie, body: nil)
            #expect(diff.status == .ok)
            let changes = String(buffer: diff.body)
            #expect(changes.contains("<code>updatedAt</code></td><td>changed</td>"))
            #expect(changes.contains("&quot;2026-02-01T08:00:00Z&quot;"))
            #expect(!changes.contains("<code>merchant.displayName</code>"))
            let missing = try await client.executeRequest(
                uri: "/console/orders/\(ServiceFixture.shopType)/NOPE", method: .get, headers: cookie, body: nil)
            #expect(missing.status == .notFound)
        }
    }

    @Test("API keys: created and shown once, revoked; a form without its token changes nothing")
    func keys() async throws {
        let fixture = try await ServiceFixture.make()
        try await fixture.wallet.consent.setOwnerPassword("correct horse battery", cost: 4)
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let cookie = try await Self.signIn(client)
            let page = try await client.executeRequest(uri: "/console/keys", method: .get, headers: [.cookie: cookie], body: nil)
            let html = String(buffer: page.body)
            let token = try #require(
                html.range(of: #"name="csrf_token" value=""#).map { String(html[$0.upperBound...].prefix(while: { $0 != "\"" })) }
            )
            let form: HTTPFields = [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"]
            let forged = try await client.executeRequest(
                uri: "/console/keys/create", method: .post, headers: form,
                body: ByteBuffer(string: "name=x&types=\(ServiceFixture.shopType)"))
            #expect(forged.status == .forbidden)
            #expect(try await fixture.wallet.apiKeys().isEmpty)
            let created = try await client.executeRequest(
                uri: "/console/keys/create", method: .post, headers: form,
                body: ByteBuffer(string: "csrf_token=\(token)&name=shop&types=\(ServiceFixture.shopType)"))
            #expect(created.status == .ok)
            let shown = String(buffer: created.body)
            let key = try #require(try await fixture.wallet.apiKeys().first)
            #expect(shown.contains("Your New Key") && shown.contains("<code>wok_\(key.identifier)_"))
            let again = try await client.executeRequest(uri: "/console/keys", method: .get, headers: [.cookie: cookie], body: nil)
            #expect(!String(buffer: again.body).contains("wok_"))
            let revoked = try await client.executeRequest(
                uri: "/console/keys/revoke", method: .post, headers: form,
                body: ByteBuffer(string: "csrf_token=\(token)&key=\(key.identifier)"))
            #expect(revoked.status == .seeOther)
            #expect(try await fixture.wallet.apiKeys().first?.revokedAt != nil)
        }
    }

    /// The form token on a console page.
    static func formToken(_ html: String) throws -> String {
        try #require(
            html.range(of: #"name="csrf_token" value=""#).map { String(html[$0.upperBound...].prefix(while: { $0 != "\"" })) })
    }

    /// Text as the page templates write it (Mustache's `{{name}}`).
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// A `multipart/form-data` body as a browser sends it.
    static func multipart(_ fields: [(name: String, filename: String?, content: Data)], boundary: String) -> ByteBuffer {
        var body = Data()
        for field in fields {
            var disposition = "Content-Disposition: form-data; name=\"\(field.name)\""
            if let filename = field.filename { disposition += "; filename=\"\(filename)\"" }
            body += Data("--\(boundary)\r\n\(disposition)\r\n".utf8)
            if field.filename != nil { body += Data("Content-Type: application/octet-stream\r\n".utf8) }
            body += Data("\r\n".utf8) + field.content + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return ByteBuffer(bytes: body)
    }

    @Test(
        "upload: an invalid archive's errors beside their paths (422); a valid one stored when asked; forged or malformed refused"
    )
    func upload() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        try await fixture.wallet.consent.setOwnerPassword("correct horse battery", cost: 4)
        let invalid = try Data(contentsOf: TestArchiveTable.directory.appendingPathComponent("invalid/order-every-problem.order"))
        let report = try TestOrderArchive.verifier().verify(invalid)
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let cookie = try await Self.signIn(client)
            let page = try await client.executeRequest(
                uri: "/console/upload", method: .get, headers: [.cookie: cookie], body: nil)
            #expect(page.status == .ok && page.headers[.cacheControl] == "no-store")
            let token = try Self.formToken(String(buffer: page.body))
            let boundary = "----formBoundary7MA4YWxkTrZu0gW"
            let headers: HTTPFields = [.cookie: cookie, .contentType: "multipart/form-data; boundary=\(boundary)"]
            func post(_ fields: [(name: String, filename: String?, content: Data)]) async throws -> TestResponse {
                try await client.executeRequest(
                    uri: "/console/upload", method: .post, headers: headers, body: Self.multipart(fields, boundary: boundary))
            }
            let rejected = try await post([
                ("csrf_token", nil, Data(token.utf8)), ("archive", "every-problem.order", invalid),
            ])
            #expect(rejected.status == .unprocessableContent)
            let html = String(buffer: rejected.body)
            #expect(!report.errors.isEmpty)
            for error in report.errors {
                // Each error in one row: where, what, its code.
                let row =
                    "<tr class=\"error\"><td><code>\(Self.escaped(error.path ?? "the archive"))</code></td><td>"
                    + "\(Self.escaped(error.message))</td><td><code>\(error.code.rawValue)</code></td></tr>"
                #expect(html.contains(row), "\(error)")
            }
            // Valid, and stored when asked.
            let stored = try await post([
                ("csrf_token", nil, Data(token.utf8)), ("archive", "v1.order", fixture.shopV1), ("store", nil, Data("1".utf8)),
            ])
            #expect(stored.status == .ok)
            #expect(String(buffer: stored.body).contains("Valid, and stored: ORDER-1."))
            #expect(
                try await fixture.wallet.orders.history(
                    FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")
                ).count == 1)
            // No token: refused, nothing stored.
            let forged = try await post([("archive", "v2.order", fixture.shopV2), ("store", nil, Data("1".utf8))])
            #expect(forged.status == .forbidden)
            #expect(
                try await fixture.wallet.orders.history(
                    FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")
                ).count == 1)
            // Not a form a browser sends.
            let unclosed = try await client.executeRequest(
                uri: "/console/upload", method: .post, headers: headers,
                body: ByteBuffer(string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n\(token)"))
            #expect(unclosed.status == .badRequest)
            let noBoundary = try await client.executeRequest(
                uri: "/console/upload", method: .post, headers: [.cookie: cookie, .contentType: "multipart/form-data"],
                body: ByteBuffer(string: "x"))
            #expect(noBoundary.status == .unsupportedMediaType)
        }
    }

    @Test("an order's page: who uploaded each version, its devices without their push tokens; the push outbox")
    func devicesAndOutbox() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        try await fixture.wallet.consent.setOwnerPassword("correct horse battery", cost: 4)
        let key = try await fixture.wallet.createAPIKey(name: "Shop backend", orderTypes: [ServiceFixture.shopType])
        let order = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let put = try await client.executeRequest(
                uri: "/api/v1/orders", method: .put,
                headers: [.authorization: "Bearer \(key.token)", .contentType: "application/vnd.apple.finance.order"],
                body: ByteBuffer(bytes: fixture.shopV1))
            #expect(put.status == .created)
            _ = try await fixture.wallet.webService.register(
                deviceIdentifier: "phone", pushToken: ServiceFixture.pushToken, for: order,
                authenticationToken: ServiceFixture.token)
            _ = try await fixture.wallet.orders.saveOrder(signedArchive: fixture.shopV2)
            let cookie = try await Self.signIn(client)
            func get(_ uri: String) async throws -> String {
                String(
                    buffer: try await client.executeRequest(uri: uri, method: .get, headers: [.cookie: cookie], body: nil).body)
            }
            let page = try await get("/console/orders/\(ServiceFixture.shopType)/ORDER-1")
            #expect(page.contains("<td>Shop backend (\(key.key.identifier))</td>"))
            #expect(page.contains("<td>not through the API</td>"))
            #expect(page.contains("1 device, the last registered"))
            #expect(page.contains("<code>phone</code>") && page.contains("<code>…\(ServiceFixture.pushToken.suffix(8))</code>"))
            #expect(!page.contains(ServiceFixture.pushToken))
            // The version pushed: waiting; then one failed for good, with APNs' reason.
            let outbox = fixture.wallet.backend.pushOutbox
            let waitingPage = try await get("/console/outbox")
            #expect(waitingPage.contains("1 push waiting") && waitingPage.contains("<td>pending</td>"))
            #expect(!waitingPage.contains(ServiceFixture.pushToken))
            let claimed = try await outbox.claimPushes(dueAt: .distantFuture, leaseEnd: .distantFuture, limit: 1)
            try await outbox.failPush(try #require(claimed.first), reason: "400 BadDeviceToken", at: TestOrderArchive.now)
            let failedPage = try await get("/console/outbox")
            #expect(failedPage.contains("No push is waiting.") && failedPage.contains("<td>400 BadDeviceToken</td>"))
            #expect(!failedPage.contains(ServiceFixture.pushToken))
        }
    }

    /// The value of the first hidden input named `name` on `page`, its HTML escapes undone.
    static func hiddenValue(_ name: String, in page: String) throws -> String {
        let marker = "name=\"\(name)\" value=\""
        let start = try #require(page.range(of: marker)).upperBound
        let end = try #require(page[start...].firstIndex(of: "\""))
        return String(page[start..<end]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(
            of: "&#39;", with: "'"
        )
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test(
        "the change form: shown with a signing identity; a preview signs nothing; Sign and Save authors; a stale preview is shown again"
    )
    func changeForm() async throws {
        let fixture = try await ServiceFixture.make()
        try await fixture.wallet.consent.setOwnerPassword("correct horse battery", cost: 4)
        let identifier = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")
        let path = "/console/orders/\(ServiceFixture.shopType)/ORDER-1"
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let cookie = try await Self.signIn(client)
            func get() async throws -> String {
                String(
                    buffer: try await client.executeRequest(uri: path, method: .get, headers: [.cookie: cookie], body: nil).body)
            }
            func post(_ fields: [(String, String)]) async throws -> TestResponse {
                let body = fields.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
                return try await client.executeRequest(
                    uri: path + "/change", method: .post,
                    headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: body))
            }
            #expect(try await get().contains("add one with <code>orders signing add</code>"))
            try await ServiceFixture.addSigningIdentity(to: fixture.wallet)
            let page = try await get()
            #expect(page.contains("Preview Changes") && page.contains("id=\"fulfillment.0\""))
            let token = try Self.hiddenValue("csrf_token", in: page)

            let preview = try await post([
                ("csrf_token", token), ("step", "preview"), ("status", "completed"), ("fulfillment.0", "delivered"),
            ])
            #expect(preview.status == .ok)
            let previewPage = String(buffer: preview.body)
            #expect(previewPage.contains("<code>fulfillments[0].status</code>"))
            #expect(previewPage.contains("<code>&quot;delivered&quot;</code>"))
            #expect(previewPage.contains("<code>status</code>") && previewPage.contains("Sign and Save"))
            #expect(try await fixture.wallet.orders.history(identifier).count == 1, "a preview signs nothing")

            #expect(!previewPage.contains("name=\"patch\""), "the confirmation carries the choices, never a patch")
            let confirmation = try ["status", "fulfillment.0", "basis"].map { ($0, try Self.hiddenValue($0, in: previewPage)) }
            #expect(confirmation.map(\.1).prefix(2) == ["completed", "delivered"])
            let forged = try await post([("csrf_token", "forged"), ("step", "sign")] + confirmation)
            #expect(forged.status == .forbidden)

            // Issue 52, item 2: a patch posted with a valid form token is not what the console signs.
            let basis = confirmation[2].1
            let smuggled = try await post([
                ("csrf_token", token), ("step", "sign"), ("basis", basis),
                (
                    "patch",
                    #"{"webServiceURL":"https://attacker.example/x/","authenticationToken":"\#(String(repeating: "f", count: 32))"}"#
                ),
            ])
            #expect(smuggled.status == .ok && String(buffer: smuggled.body).contains("Nothing to Change"))
            let smuggledWithChoice = try await post(
                [("csrf_token", token), ("step", "sign"), ("patch", #"{"webServiceURL":"https://attacker.example/x/"}"#)]
                    + confirmation)
            #expect(smuggledWithChoice.status == .seeOther && smuggledWithChoice.headers[.location] == path + "?done=signed")
            #expect(try await fixture.wallet.orders.history(identifier).count == 2)
            let current = try #require(try await fixture.wallet.orders.decodedOrder(identifier))
            #expect(current.status == .completed && current.fulfillments?.first?.statusName == "delivered")
            #expect(current.webServiceURL?.absoluteString == ServiceFixture.shopWebServiceURL, "only the choices were signed")
            #expect(current.authenticationToken == ServiceFixture.token)

            // The same confirmation again: the order is no longer the version previewed.
            let stale = try await post([("csrf_token", token), ("step", "sign")] + confirmation)
            #expect(stale.status == .ok && String(buffer: stale.body).contains("Nothing to Change"))
            #expect(try await fixture.wallet.orders.history(identifier).count == 2)
        }
    }
}

extension ConsolePagesTests {
    @Test(
        "tracking: the webhooks without their secrets, the latest events and those waiting for an order; a version names its event"
    )
    func tracking() async throws {
        let fixture = try await ServiceFixture.make()
        try await fixture.wallet.consent.setOwnerPassword("correct horse battery", cost: 4)
        try await ServiceFixture.addSigningIdentity(to: fixture.wallet)
        let client: ClientIdentifier = "com.example.tracker"
        try await fixture.wallet.entitle(client, toOrderTypes: [ServiceFixture.shopType])
        let secret = "console-test-secret-\(UUID().uuidString)"
        let endpoint = try await fixture.wallet.addTrackingEndpoint(
            provider: .easyPost, orderTypeIdentifiers: [ServiceFixture.shopType], secrets: [secret])
        let policy = WebServiceURLPolicy(
            serviceURL: "https://wallet.example.com/", allowed: [ServiceFixture.shopType: [ServiceFixture.shopWebServiceURL]])
        // The stored test order's parcel (sources/small), and one no order names.
        let merchant = fixture.wallet.merchantOrders(for: client)
        func event(_ id: String, _ number: String) -> Data {
            Data(
                #"{"eventID":"\#(id)","trackingNumber":"\#(number)","status":"outForDelivery","occurredAt":"2026-12-07T06:40:00Z"}"#
                    .utf8)
        }
        // Both stored orders of the type name it (ORDER-1 and the fixture's odd identifier).
        let applied = try await merchant.receiveTrackingEvent(event("scan-<1>", "JD014600003828"), webService: policy)
        #expect(applied.outcome == .applied && applied.versions.count == 2)
        #expect(try await merchant.receiveTrackingEvent(event("scan-2", "NOBODY-42"), webService: policy).outcome == .unmatched)
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { http in
            let cookie: HTTPFields = [.cookie: try await Self.signIn(http)]
            let answer = try await http.executeRequest(uri: "/console/tracking", method: .get, headers: cookie, body: nil)
            #expect(answer.status == .ok)
            let page = String(buffer: answer.body)
            #expect(page.contains("<code>/api/v1/tracking/easypost/\(endpoint.identifier)</code>"))
            #expect(!page.contains(secret), "a secret is never shown")
            #expect(page.contains("<code>scan-&lt;1&gt;</code>"), "an event id is escaped")
            #expect(page.contains("<td>applied</td><td>2</td>") && page.contains("<td>unmatched</td><td>0</td>"), "\(page)")
            let waiting = try #require(page.range(of: "Waiting for an order")).upperBound
            let latest = try #require(page.range(of: "Latest events")).lowerBound
            #expect(page[waiting..<latest].contains("NOBODY42") && !page[waiting..<latest].contains("JD014600003828"))
            let order = try await http.executeRequest(
                uri: "/console/orders/\(ServiceFixture.shopType)/ORDER-1", method: .get, headers: cookie, body: nil)
            let orderPage = String(buffer: order.body)
            #expect(orderPage.contains("generic event scan-&lt;1&gt;, received "))
            let events = try #require(orderPage.range(of: "Tracking Events</h2>")).upperBound
            #expect(orderPage[events...].contains("<td><code>scan-&lt;1&gt;</code></td><td><code>JD014600003828</code></td>"))
        }
    }
}
