import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OrderStorage
import OrdersService
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders
import WalletOutbox

@Suite("Push through APNs (a local HTTP/2 TLS server playing it)")
struct DeviceWalkThroughTests {
    static func apns(
        port: Int, authentication: APNsConfiguration.Authentication, timeout: Duration = .seconds(30)
    ) throws -> APNsClient {
        var logger = Logger(label: "test.apns")
        logger.logLevel = .critical
        return try APNsClient(
            configuration: APNsConfiguration(
                environment: .custom(try #require(URL(string: "https://127.0.0.1:\(port)"))), authentication: authentication,
                additionalTrustRootsPEM: [try TestArchiveTable.data("pki/root.pem")], requestTimeout: timeout),
            logger: logger)
    }

    /// `body` with ``apns(port:authentication:timeout:)``'s client, shut down however `body` ends:
    /// a client released running is a fatal error, which would end every test in the process.
    static func withAPNs<T: Sendable>(
        port: Int, authentication: APNsConfiguration.Authentication, timeout: Duration = .seconds(30),
        _ body: (APNsClient) async throws -> T
    ) async throws -> T {
        let client = try apns(port: port, authentication: authentication, timeout: timeout)
        do {
            let result = try await body(client)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    static func certificate(_ tls: TestTLS) throws -> APNsConfiguration.Authentication {
        .certificate(certificatePEM: try tls.clientCertificateChain, privateKeyPEM: try TestArchiveTable.data("pki/order.key"))
    }

    @Test("register → merchant PUTs a newer version → one background push → tag → 200 → 304")
    func walkThrough() async throws {
        let tls = try await TestTLS.make()
        let fake = FakeAPNs()
        let fixture = try await ServiceFixture.make()
        let key = try await fixture.wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType])
        try await fake.run(credentials: tls, requireClientCertificate: true) { apnsPort in
            try await Self.withAPNs(port: apnsPort, authentication: try Self.certificate(tls)) { client in
                var logger = Logger(label: "test.drainer")
                logger.logLevel = .critical
                let drainer = OutboxDrainer(
                    outbox: fixture.wallet.backend.pushOutbox, registrations: fixture.wallet.backend.registrations,
                    sender: client,
                    configuration: .init(pollInterval: .milliseconds(20)), logger: logger)
                let app = fixture.service().application(host: "127.0.0.1", port: 0, services: [drainer])
                try await app.testLive { device in
                    let auth: HTTPFields = [.authorization: "AppleOrder \(ServiceFixture.token)"]
                    let registrations = ServiceFixture.path("v1", "devices", "phone", "registrations", ServiceFixture.shopType)
                    let order = ServiceFixture.path("v1", "orders", ServiceFixture.shopType, "ORDER-1")

                    // The device registers and learns its tag.
                    let registered = try await device.executeRequest(
                        uri: registrations + "/ORDER-1", method: .post, headers: auth,
                        body: ByteBuffer(string: #"{"pushToken":"\#(ServiceFixture.pushToken)"}"#))
                    #expect(registered.status == .created)
                    let first = try await device.executeRequest(uri: registrations, method: .get, headers: [:], body: nil)
                    let tag = try JSONDecoder().decode(ChangedOrdersBody.self, from: Data(buffer: first.body)).lastModified

                    // The merchant uploads a newer version.
                    let put = try await device.executeRequest(
                        uri: "/api/v1/orders", method: .put,
                        headers: [.authorization: "Bearer \(key.token)", .contentType: "application/vnd.apple.finance.order"],
                        body: ByteBuffer(bytes: fixture.shopV2))
                    #expect(put.status == .ok)

                    // Exactly one push: background, priority 5, topic = order type, payload {}, stored for hours.
                    // Until the outbox is empty: each push is received before its row is completed,
                    // so by then every push the save owed (one, or more by a defect) has arrived.
                    // (A deadline, not a count of naps: under the whole suite's load a nap lasts longer.)
                    try await Poll.until(every: .milliseconds(10)) {
                        guard !fake.received.isEmpty else { return false }
                        return try await fixture.wallet.pendingPushCount() == 0
                    }
                    let pushes = fake.received
                    #expect(pushes.count == 1)
                    let push = try #require(pushes.first)
                    #expect(push.isHTTP2)
                    #expect(push.deviceToken == ServiceFixture.pushToken && push.body == "{}")
                    let header = { (name: String) in HTTPField.Name(name).flatMap { push.headers[$0] } }
                    #expect(header("apns-topic") == ServiceFixture.shopType)
                    #expect(header("apns-push-type") == "background")
                    #expect(header("apns-priority") == "5")
                    let expiration = try #require(header("apns-expiration").flatMap { Int($0) })
                    #expect(expiration > Int(Date().timeIntervalSince1970) + 3600)
                    #expect(try await fixture.wallet.backend.pushOutbox.pendingPushCount() == 0)

                    // The device asks with its tag, gets the order, fetches it, and revalidates it.
                    let changed = try await device.executeRequest(
                        uri: registrations + "?ordersModifiedSince=\(tag)", method: .get, headers: [:], body: nil)
                    #expect(changed.status == .ok)
                    let changes = try JSONDecoder().decode(ChangedOrdersBody.self, from: Data(buffer: changed.body))
                    #expect(changes.orderIdentifiers == ["ORDER-1"])
                    let fetched = try await device.executeRequest(uri: order, method: .get, headers: auth, body: nil)
                    #expect(fetched.status == .ok && Data(buffer: fetched.body) == fixture.shopV2)
                    let etag = try #require(fetched.headers[.eTag])
                    let again = try await device.executeRequest(
                        uri: order, method: .get, headers: auth + [.ifNoneMatch: etag], body: nil)
                    #expect(again.status == .notModified)
                }
            }
        }
    }

    @Test("410 removes the registration; 429 and 500 are retried; a 400 is dropped")
    func apnsAnswers() async throws {
        let tls = try await TestTLS.make()
        let fake = FakeAPNs()
        try await fake.run(credentials: tls, requireClientCertificate: true) { port in
            try await Self.withAPNs(port: port, authentication: try Self.certificate(tls)) { client in
                for (status, reason, expected) in [
                    (HTTPResponse.Status.gone, "Unregistered", PushDelivery.unregistered(reason: "Unregistered")),
                    (.tooManyRequests, "TooManyRequests", .retry(reason: "TooManyRequests")),
                    (.internalServerError, "InternalServerError", .retry(reason: "InternalServerError")),
                    (.badRequest, "BadDeviceToken", .unregistered(reason: "BadDeviceToken")),
                    (.badRequest, "BadTopic", .dropped(reason: "BadTopic")),
                ] {
                    fake.answer(status, reason: reason)
                    let push = PendingPush(
                        id: 1, pushToken: "abc", orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1",
                        deviceIdentifier: "phone", enqueuedAt: Date(), attempts: 0)
                    #expect(await client.send(push) == expected, "\(status.code) \(reason)")
                }

                // The fake demands a client certificate, as APNs does: without one, TLS fails and the
                // push waits for a retry (so the deliveries above presented the Order Type ID certificate).
                let refused = try await Self.withAPNs(
                    port: port, authentication: .token(p8: try Data(contentsOf: tls.p8), keyIdentifier: "K", teamIdentifier: "T"),
                    timeout: .seconds(2)
                ) { anonymous in
                    await anonymous.send(
                        PendingPush(
                            id: 2, pushToken: "abc", orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1",
                            deviceIdentifier: "phone", enqueuedAt: Date(), attempts: 0))
                }
                if case .retry = refused {} else { Issue.record("a client without a certificate got \(refused)") }

                // Through the drainer: a 410 removes the registration and the outbox row.
                let fixture = try await OutboxDeliveryTests.registeredFixture()
                _ = try await fixture.wallet.orders.saveOrder(signedArchive: fixture.shopV2)
                fake.answer(.gone, reason: "Unregistered")
                #expect(try await OutboxDeliveryTests.drainer(fixture, sender: client).drainOnce() == 1)
                #expect(try await fixture.wallet.backend.pushOutbox.pendingPushCount() == 0)
                let changes = try await fixture.wallet.webService.changedOrders(
                    deviceIdentifier: "phone", orderTypeIdentifier: ServiceFixture.shopType, since: nil)
                #expect(changes == nil)
            }
        }
    }

    @Test("token authentication: an ES256 JWT the key's public half verifies, with kid and iss")
    func tokenAuthentication() async throws {
        let tls = try await TestTLS.make()
        let fake = FakeAPNs()
        try await fake.run(credentials: tls, requireClientCertificate: false) { port in
            try await Self.withAPNs(
                port: port,
                authentication: .token(
                    p8: try Data(contentsOf: tls.p8), keyIdentifier: "KEY1234567", teamIdentifier: "ABCDE12345")
            ) { client in
                let push = PendingPush(
                    id: 1, pushToken: "abc", orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1",
                    deviceIdentifier: "phone", enqueuedAt: Date(), attempts: 0)
                #expect(await client.send(push) == .delivered)
            }
        }
        let authorization = try #require(fake.received.first?.headers[.authorization])
        #expect(authorization.hasPrefix("bearer "))
        let parts = authorization.dropFirst("bearer ".count).split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        #expect(
            String(decoding: try #require(Self.base64URLDecoded(parts[0])), as: UTF8.self)
                == #"{"alg":"ES256","kid":"KEY1234567"}"#)
        let claims = String(decoding: try #require(Self.base64URLDecoded(parts[1])), as: UTF8.self)
        #expect(claims.hasPrefix(#"{"iat":"#) && claims.hasSuffix(#","iss":"ABCDE12345"}"#))

        // r ‖ s → DER ECDSA-Sig-Value, verified by the openssl tool with the public key.
        let raw = try #require(Self.base64URLDecoded(parts[2]))
        try #require(raw.count == 64)
        let integer = { (bytes: Data) -> DERNode in
            var content = Array(bytes.drop { $0 == 0 })
            if content.isEmpty || content[0] & 0x80 != 0 { content.insert(0, at: 0) }
            return .primitive(tag: 0x02, content: content)
        }
        let der = DERNode.constructed(tag: 0x30, children: [integer(raw.prefix(32)), integer(raw.suffix(32))]).encoded
        try Data(der).write(to: tls.folder.appendingPathComponent("jwt.sig"))
        try Data("\(parts[0]).\(parts[1])".utf8).write(to: tls.folder.appendingPathComponent("jwt.input"))
        let verified = try await TestTLS.opensslStatus(
            ["dgst", "-sha256", "-verify", tls.p8PublicKey.path, "-signature", "jwt.sig", "jwt.input"], in: tls.folder)
        #expect(verified == 0)
    }

    static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
