import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OrderPackage
import OrderStorage
import OrdersService
import Synchronization
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders
import WalletOutbox
import WalletPrimitives

/// Authoring through the merchant API (issue 43, item 2): `PUT` and `PATCH …/content`, signed with
/// the type's identity, each version pushed once to the registered device, the answer with Apple
/// Pay's `orderDetails`.
@Suite("Merchant API: authoring order content")
struct OrderContentRoutesTests {
    /// Every push the drainer sent, in order.
    final class Pushes: PushSender, Sendable {
        let sent = Mutex<[PendingPush]>([])
        func send(_ push: PendingPush) async -> PushDelivery {
            sent.withLock { $0.append(push) }
            return .recorded
        }

        /// Waits (60 s at most) until `count` pushes were sent; then the count.
        func wait(for count: Int) async throws -> Int {
            let end = ContinuousClock.now + .seconds(60)
            while sent.withLock({ $0.count }) < count, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(20)) }
            return sent.withLock { $0.count }
        }
    }

    static func fixture() async throws -> (ServiceFixture, key: String) {
        let fixture = try await ServiceFixture.make()
        try await ServiceFixture.addSigningIdentity(to: fixture.wallet)
        let key = try await fixture.wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType])
        return (fixture, key.token)
    }

    /// The URL the shipped sources name, the merchant's own web service: allowed for the type.
    static let merchantURL = "https://shop.example.com/wallet/"

    /// The service at `https://wallet.example.com`, allowing the shop type's orders to name
    /// ``merchantURL`` unless `allowingMerchantURL` is false.
    static func service(
        _ fixture: ServiceFixture, allowingMerchantURL: Bool = true, publicURL: String? = "https://wallet.example.com"
    ) -> OrdersService {
        var logger = Logger(label: "test.serve")
        logger.logLevel = .error
        return OrdersService(
            wallet: fixture.wallet,
            configuration: .init(
                logger: logger, publicURL: publicURL,
                allowedWebServiceURLs: allowingMerchantURL ? [ServiceFixture.shopType: [merchantURL]] : [:]))
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(
            JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], "\(String(buffer: response.body))")
    }

    @Test(
        "PUT, PATCH, PATCH of a stored order, then PUT of a new one: each version pushed once to the registered device; answers with orderDetails"
    )
    func patchesAndPut() async throws {
        let (fixture, token) = try await Self.fixture()
        let pushes = Pushes()
        var logger = Logger(label: "test.drainer")
        logger.logLevel = .critical
        let drainer = OutboxDrainer(
            outbox: fixture.wallet.backend.pushOutbox, registrations: fixture.wallet.backend.registrations, sender: pushes,
            configuration: .init(pollInterval: .milliseconds(20)), logger: logger)
        let app = Self.service(fixture).application(host: "127.0.0.1", port: 0, services: [drainer])
        try await app.testLive { client in
            let registered = try await client.executeRequest(
                uri: ServiceFixture.path("v1", "devices", "phone", "registrations", ServiceFixture.shopType, "ORDER-1"),
                method: .post, headers: [.authorization: "AppleOrder \(ServiceFixture.token)"],
                body: ByteBuffer(string: #"{"pushToken":"\#(ServiceFixture.pushToken)"}"#))
            #expect(registered.status == .created)
            let merchant: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/merge-patch+json"]
            let content = ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-1", "content")

            // PUT: the order's whole order.json (the stored images kept): its next version, pushed.
            let wholeOrder = try String(decoding: TestArchiveTable.data("sources/small/order.json"), as: UTF8.self)
                .replacingOccurrences(of: "ORDER-123", with: "ORDER-1").replacingOccurrences(of: "123-456-789", with: "PUT-1")
                // createdAt left out: the stored version's is kept (sending another would be refused).
                .replacingOccurrences(of: "\"createdAt\": \"2026-01-15T09:30:00Z\",", with: "")
            let replaced = try await client.executeRequest(
                uri: content, method: .put, headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                body: ByteBuffer(string: wholeOrder))
            #expect(replaced.status == .ok, "\(String(buffer: replaced.body))")
            let replacedAnswer = try Self.json(replaced)
            #expect(replacedAnswer["firstVersion"] as? Bool == false)
            #expect(try await pushes.wait(for: 1) == 1)

            let replacedAt = try #require(replacedAnswer["updatedAt"] as? String)
            var previous = try #require(RFC3339Timestamp(replacedAt))
            for (round, status) in ["completed", "cancelled"].enumerated() {
                let patched = try await client.executeRequest(
                    uri: content, method: .patch, headers: merchant, body: ByteBuffer(string: #"{"status":"\#(status)"}"#))
                #expect(patched.status == .ok, "\(String(buffer: patched.body))")
                let answer = try Self.json(patched)
                let updatedAt = try #require(answer["updatedAt"] as? String)
                let timestamp = try #require(RFC3339Timestamp(updatedAt))
                #expect(timestamp > previous, "\(updatedAt) after \(previous)")
                previous = timestamp
                #expect(answer["firstVersion"] as? Bool == false)
                #expect((answer["customerPage"] as? String)?.hasPrefix("/orders/") == true)
                let details = try #require(answer["orderDetails"] as? [String: Any])
                #expect(details["authenticationToken"] as? String == ServiceFixture.token)
                #expect(details["webServiceURL"] as? String == "https://shop.example.com/wallet/", "the order's own URL is kept")
                #expect(try await pushes.wait(for: round + 2) == round + 2)
                let stored = try #require(
                    try await fixture.wallet.orders.decodedOrder(
                        .init(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")))
                #expect(stored.status.rawValue == status && stored.updatedAt.text == updatedAt)
            }

            // A new order from JSON alone: no images, so none referenced; the service's token and URL.
            var fresh = try #require(
                JSONSerialization.jsonObject(with: TestArchiveTable.data("sources/small/order.json")) as? [String: Any])
            for key in ["authenticationToken", "webServiceURL", "orderIdentifier", "createdAt", "updatedAt"] { fresh[key] = nil }
            var merchantInfo = try #require(fresh["merchant"] as? [String: Any])
            merchantInfo["logo"] = nil
            fresh["merchant"] = merchantInfo
            fresh["lineItems"] = try #require(fresh["lineItems"] as? [[String: Any]]).map { item in
                var item = item
                item["image"] = nil
                return item
            }
            let put = try await client.executeRequest(
                uri: ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-NEW", "content"), method: .put,
                headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                body: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: fresh)))
            #expect(put.status == .created, "\(String(buffer: put.body))")
            let answer = try Self.json(put)
            #expect(answer["firstVersion"] as? Bool == true)
            let details = try #require(answer["orderDetails"] as? [String: Any])
            #expect(details["orderIdentifier"] as? String == "ORDER-NEW")
            #expect((details["authenticationToken"] as? String)?.utf8.count == 32)
            #expect(details["webServiceURL"] as? String == "https://wallet.example.com/", "the service's public URL")
            let saved = try #require(
                try await fixture.wallet.orders.order(
                    .init(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-NEW")))
            #expect(saved.archiveSHA256 == answer["archiveSHA256"] as? String)
            #expect(saved.uploadedBy != nil, "recorded as the key's upload")
        }
        #expect(
            pushes.sent.withLock { $0.map(\.orderIdentifier) } == ["ORDER-1", "ORDER-1", "ORDER-1"], "each version pushed once")
    }

    @Test(
        "refusals: status and code",
        arguments: [
            (
                "PATCH", "ORDER-1", #"{"createdAt":"2020-01-01T00:00:00Z"}"#, "application/merge-patch+json", 422,
                "authoring.immutableField"
            ),
            (
                "PATCH", "ORDER-1", #"{"orderIdentifier":"X"}"#, "application/merge-patch+json", 422,
                "authoring.identifierMismatch"
            ),
            ("PATCH", "ORDER-1", #"{"status":"nonsense"}"#, "application/merge-patch+json", 422, "store.invalidArchive"),
            ("PATCH", "ORDER-1", "[1]", "application/merge-patch+json", 400, "authoring.invalidContent"),
            ("PATCH", "ORDER-1", "{", "application/merge-patch+json", 400, "authoring.invalidContent"),
            ("PATCH", "ORDER-404", #"{"status":"completed"}"#, "application/merge-patch+json", 404, "authoring.orderNotFound"),
            ("PATCH", "ORDER-1", #"{"status":"completed"}"#, "text/plain", 415, "request.unsupportedMediaType"),
            ("PUT", "ORDER-1", #"{"status":"completed"}"#, "application/xml", 415, "request.unsupportedMediaType"),
        ])
    func refused(_ method: String, _ id: String, _ body: String, _ type: String, _ status: Int, _ code: String) async throws {
        let (fixture, token) = try await Self.fixture()
        try await Self.service(fixture).application(host: "127.0.0.1", port: 0).test(.router) { client in
            let response = try await client.executeRequest(
                uri: ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, id, "content"),
                method: HTTPRequest.Method(method) ?? .patch,
                headers: [.authorization: "Bearer \(token)", .contentType: type], body: ByteBuffer(string: body))
            #expect(response.status.code == status, "\(String(buffer: response.body))")
            let error = try #require(try Self.json(response)["error"] as? [String: Any])
            #expect(error["code"] as? String == code)
        }
        let stored = try await fixture.wallet.orders.order(
            .init(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1"))
        #expect(stored?.updatedAt.text == "2026-01-15T09:30:00Z", "nothing saved")
    }

    @Test("a type the key may not author is 403 before anything is signed; a type without an identity is 409")
    func scope() async throws {
        let (fixture, token) = try await Self.fixture()
        let other = try await fixture.wallet.createAPIKey(name: "other", orderTypes: [ServiceFixture.otherType])
        try await Self.service(fixture).application(host: "127.0.0.1", port: 0).test(.router) { client in
            let notEntitled = try await client.executeRequest(
                uri: ServiceFixture.path("api", "v1", "orders", ServiceFixture.otherType, "OTHER-1", "content"), method: .patch,
                headers: [.authorization: "Bearer \(token)", .contentType: "application/merge-patch+json"],
                body: ByteBuffer(string: "{}"))
            #expect(notEntitled.status == .forbidden)
            let noIdentity = try await client.executeRequest(
                uri: ServiceFixture.path("api", "v1", "orders", ServiceFixture.otherType, "OTHER-1", "content"), method: .patch,
                headers: [.authorization: "Bearer \(other.token)", .contentType: "application/merge-patch+json"],
                body: ByteBuffer(string: "{}"))
            #expect(noIdentity.status == .conflict)
            #expect((try Self.json(noIdentity)["error"] as? [String: Any])?["code"] as? String == "signing.notFound")
            let unauthenticated = try await client.executeRequest(
                uri: ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-1", "content"), method: .patch,
                headers: [.contentType: "application/merge-patch+json"], body: ByteBuffer(string: "{}"))
            #expect(unauthenticated.status == .unauthorized)
        }
    }

    @Test("Idempotency-Key: a retry gets the first answer byte for byte, no second version; reused for another body: 422")
    func idempotentRetries() async throws {
        let (fixture, token) = try await Self.fixture()
        let identifier = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")
        try await Self.service(fixture).application(host: "127.0.0.1", port: 0).test(.router) { client in
            let uri = ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-1", "content")
            func patch(_ body: String, key: String?) async throws -> TestResponse {
                var headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/merge-patch+json"]
                if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
                return try await client.executeRequest(uri: uri, method: .patch, headers: headers, body: ByteBuffer(string: body))
            }
            let first = try await patch(#"{"status":"completed"}"#, key: "4b1d5f8e-3c2a-4e6f-9a7b-0c1d2e3f4a5b")
            #expect(first.status == .ok)
            #expect(first.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            let retry = try await patch(#"{"status":"completed"}"#, key: "4b1d5f8e-3c2a-4e6f-9a7b-0c1d2e3f4a5b")
            #expect(retry.status == .ok && retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(Data(buffer: retry.body) == Data(buffer: first.body), "the first answer, byte for byte")
            #expect(try await fixture.wallet.orders.history(identifier).count == 2, "one new version, not two")

            let quoted = try await patch(#"{"status":"completed"}"#, key: #""4b1d5f8e-3c2a-4e6f-9a7b-0c1d2e3f4a5b""#)
            #expect(quoted.status == .ok && Data(buffer: quoted.body) == Data(buffer: first.body), "the structured-field form")

            let reused = try await patch(#"{"status":"cancelled"}"#, key: "4b1d5f8e-3c2a-4e6f-9a7b-0c1d2e3f4a5b")
            #expect(reused.status == .unprocessableContent)
            #expect((try Self.json(reused)["error"] as? [String: Any])?["code"] as? String == "request.idempotencyKeyReused")

            for bad in ["", "with space", String(repeating: "k", count: 256), "ünï"] {
                let refused = try await patch(#"{"status":"cancelled"}"#, key: bad)
                #expect(refused.status == .badRequest, "\(bad.debugDescription)")
                #expect((try Self.json(refused)["error"] as? [String: Any])?["code"] as? String == "request.invalidHeader")
            }
            #expect(try await fixture.wallet.orders.history(identifier).count == 2)
        }
    }

    @Test("eight requests with one Idempotency-Key at once: one version, eight identical answers")
    func concurrentRetries() async throws {
        let (fixture, token) = try await Self.fixture()
        let identifier = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")
        let app = Self.service(fixture).application(host: "127.0.0.1", port: 0)
        try await app.testLive { client in
            let uri = ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-1", "content")
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, Data).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await client.executeRequest(
                            uri: uri, method: .patch,
                            headers: [
                                .authorization: "Bearer \(token)", .contentType: "application/merge-patch+json",
                                HTTPField.Name("Idempotency-Key")!: "same-request",
                            ], body: ByteBuffer(string: #"{"status":"completed"}"#))
                        return (response.status, Data(buffer: response.body))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.0 == .ok }, "\(answers.map { String(decoding: $0.1, as: UTF8.self) })")
            #expect(Set(answers.map(\.1)).count == 1, "one answer")
        }
        #expect(try await fixture.wallet.orders.history(identifier).count == 2, "one new version")
    }

    /// A multipart/form-data body with `files` as parts named by their package paths.
    static func multipart(_ files: [(String, Data)], boundary: String = "wallet-orders-boundary") -> ByteBuffer {
        var body = Data()
        for (name, contents) in files {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(name)\"\r\n\r\n".utf8)
            body += contents + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return ByteBuffer(bytes: body)
    }

    @Test("a multipart PUT carries order.json and its images; its files replace the current version's; malformed forms are 400")
    func multipartPut() async throws {
        let (fixture, token) = try await Self.fixture()
        let small = TestArchiveTable.directory.appendingPathComponent("sources/small")
        let orderJSON = try String(decoding: Data(contentsOf: small.appendingPathComponent("order.json")), as: UTF8.self)
            .replacingOccurrences(of: "ORDER-123", with: "ORDER-MP")
        let images = try ["logo.png", "item.png"].map { ($0, try Data(contentsOf: small.appendingPathComponent($0))) }
        try await Self.service(fixture).application(host: "127.0.0.1", port: 0).test(.router) { client in
            let uri = ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-MP", "content")
            func put(
                _ body: ByteBuffer, type: String = "multipart/form-data; boundary=wallet-orders-boundary"
            ) async throws
                -> TestResponse
            {
                try await client.executeRequest(
                    uri: uri, method: .put, headers: [.authorization: "Bearer \(token)", .contentType: type], body: body)
            }
            let created = try await put(Self.multipart([("order.json", Data(orderJSON.utf8))] + images))
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let identifier = FullyQualifiedOrderIdentifier(
                orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-MP")
            let archive = try #require(try await fixture.wallet.orders.archive(identifier))
            let names = try ZipArchive(reading: archive).names
            #expect(Set(names) == ["order.json", "logo.png", "item.png", "manifest.json", "signature"])

            // Without the images order.json refers to: refused at the references, nothing saved.
            let missing = try await put(Self.multipart([("order.json", Data(orderJSON.utf8))]))
            #expect(missing.status == .unprocessableContent, "\(String(buffer: missing.body))")
            #expect(try await fixture.wallet.orders.history(identifier).count == 1)

            for (body, reason) in [
                (Self.multipart(images), "no part is named order.json"),
                (
                    Self.multipart([("order.json", Data(orderJSON.utf8)), ("logo.png", images[0].1), ("logo.png", images[0].1)]),
                    "two parts"
                ),
                (Self.multipart((0...128).map { ("f\($0).png", Data()) }), "more than"),
                (ByteBuffer(string: "--wallet-orders-boundary\r\n"), "headers"),
            ] {
                let refused = try await put(body)
                #expect(refused.status == .badRequest, "\(reason): \(String(buffer: refused.body))")
                #expect((try Self.json(refused)["error"] as? [String: Any])?["message"] as? String ?? "" != "")
            }
            let noBoundary = try await put(Self.multipart(images), type: "multipart/form-data")
            #expect(noBoundary.status == .badRequest)
        }
    }
}
