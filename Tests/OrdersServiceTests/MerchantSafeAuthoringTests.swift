import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OrderPackage
import OrderStorage
import OrdersService
import StorageContract
import TestArchiveTable
import Testing
import WalletOrders
import WalletPostgres
import WalletPrimitives

/// Authoring as a leaked merchant API key would use it (issue 52): it cannot send devices, or
/// their token, to another host; a retried multipart upload replays; files the service writes
/// are refused; writers of one order take turns; the service's `updatedAt` has one width.
@Suite("Merchant-safe authoring")
struct MerchantSafeAuthoringTests {
    static let content = ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-1", "content")
    static let identifier = FullyQualifiedOrderIdentifier(
        orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")
    static let evil = "https://evil.example/steal/"

    static func error(_ response: TestResponse) throws -> (code: String?, path: String?) {
        let error = try #require(try OrderContentRoutesTests.json(response)["error"] as? [String: Any])
        return (error["code"] as? String, error["path"] as? String)
    }

    /// order.json of the stored test order, with `edit` applied.
    static func orderJSON(_ edit: (inout [String: Any]) -> Void = { _ in }) throws -> Data {
        var order = try #require(
            JSONSerialization.jsonObject(with: TestArchiveTable.data("sources/small/order.json")) as? [String: Any])
        order["orderIdentifier"] = "ORDER-1"
        order["createdAt"] = nil
        edit(&order)
        return try JSONSerialization.data(withJSONObject: order)
    }

    @Test("a webServiceURL other than the service's is refused by PATCH, PUT and multipart PUT; nothing is saved (item 1)")
    func foreignURLRefused() async throws {
        let (fixture, token) = try await OrderContentRoutesTests.fixture()
        let service = OrderContentRoutesTests.service(fixture, allowingMerchantURL: false)
        try await service.application(host: "127.0.0.1", port: 0).test(.router) { client in
            let merchant: HTTPFields = [.authorization: "Bearer \(token)"]
            let patched = try await client.executeRequest(
                uri: Self.content, method: .patch, headers: merchant + [.contentType: "application/merge-patch+json"],
                body: ByteBuffer(string: #"{"webServiceURL":"\#(Self.evil)"}"#))
            #expect(patched.status == .unprocessableContent, "\(String(buffer: patched.body))")
            #expect(try Self.error(patched) == ("authoring.webServiceURLNotAllowed", "webServiceURL"))

            let put = try await client.executeRequest(
                uri: Self.content, method: .put, headers: merchant + [.contentType: "application/json"],
                body: ByteBuffer(bytes: try Self.orderJSON { $0["webServiceURL"] = Self.evil }))
            #expect(put.status == .unprocessableContent)
            #expect(try Self.error(put).code == "authoring.webServiceURLNotAllowed")

            let small = TestArchiveTable.directory.appendingPathComponent("sources/small")
            let form = try OrderContentRoutesTests.multipart(
                [("order.json", try Self.orderJSON { $0["webServiceURL"] = "https://wallet.example.com.evil.example/" })]
                    + ["logo.png", "item.png"].map { ($0, try Data(contentsOf: small.appendingPathComponent($0))) })
            let multipart = try await client.executeRequest(
                uri: Self.content, method: .put,
                headers: merchant + [.contentType: "multipart/form-data; boundary=wallet-orders-boundary"], body: form)
            #expect(multipart.status == .unprocessableContent, "\(String(buffer: multipart.body))")
            #expect(try Self.error(multipart).code == "authoring.webServiceURLNotAllowed")
        }
        #expect(try await fixture.wallet.orders.history(Self.identifier).count == 1, "nothing saved")
    }

    @Test("a version moves devices only to the service's own URL or one the operator allowed, with a token they never had")
    func urlChangeRotatesToken() async throws {
        let (fixture, token) = try await OrderContentRoutesTests.fixture()
        let merchant: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/merge-patch+json"]
        let device = ServiceFixture.path("v1", "orders", ServiceFixture.shopType, "ORDER-1")
        @Sendable func details(_ response: TestResponse) throws -> [String: Any] {
            try #require(try OrderContentRoutesTests.json(response)["orderDetails"] as? [String: Any])
        }

        // Not allowed: the stored merchant URL is replaced by the service's, and the token with it.
        let strict = OrderContentRoutesTests.service(fixture, allowingMerchantURL: false)
        let rotated = try await strict.application(host: "127.0.0.1", port: 0).test(.router) { client in
            let patched = try await client.executeRequest(
                uri: Self.content, method: .patch, headers: merchant, body: ByteBuffer(string: #"{"status":"completed"}"#))
            #expect(patched.status == .ok, "\(String(buffer: patched.body))")
            let answer = try details(patched)
            #expect(answer["webServiceURL"] as? String == "https://wallet.example.com/")
            let newToken = try #require(answer["authenticationToken"] as? String)
            #expect(newToken != ServiceFixture.token && newToken.utf8.count == 32)
            let old = try await client.executeRequest(
                uri: device, method: .get, headers: [.authorization: "AppleOrder \(ServiceFixture.token)"], body: nil)
            #expect(old.status == .unauthorized, "the old token no longer reads the order")
            let new = try await client.executeRequest(
                uri: device, method: .get, headers: [.authorization: "AppleOrder \(newToken)"], body: nil)
            #expect(new.status == .ok)
            return newToken
        }
        let stored = try #require(try await fixture.wallet.orders.decodedOrder(Self.identifier))
        #expect(stored.webServiceURL?.absoluteString == "https://wallet.example.com/" && stored.authenticationToken == rotated)

        // Allowed for the type: a merchant may move its orders to its own web service, never with the token they had.
        let allowing = OrderContentRoutesTests.service(fixture)
        try await allowing.application(host: "127.0.0.1", port: 0).test(.router) { client in
            let moved = try await client.executeRequest(
                uri: Self.content, method: .patch, headers: merchant,
                body: ByteBuffer(string: #"{"webServiceURL":"\#(OrderContentRoutesTests.merchantURL)"}"#))
            #expect(moved.status == .ok, "\(String(buffer: moved.body))")
            let answer = try details(moved)
            #expect(answer["webServiceURL"] as? String == OrderContentRoutesTests.merchantURL)
            let movedToken = try #require(answer["authenticationToken"] as? String)
            #expect(movedToken != rotated, "the token devices had at the service does not go to the merchant's host")
            let again = try await client.executeRequest(
                uri: Self.content, method: .patch, headers: merchant, body: ByteBuffer(string: #"{"status":"cancelled"}"#))
            #expect(try details(again)["authenticationToken"] as? String == movedToken, "no change of URL, no new token")
        }
    }

    @Test("the same multipart upload with new boundaries replays; another part's media type or order is another request (item 3)")
    func multipartRetryReplays() async throws {
        let (fixture, token) = try await OrderContentRoutesTests.fixture()
        let small = TestArchiveTable.directory.appendingPathComponent("sources/small")
        let orderJSON = try Self.orderJSON()
        let logo = try Data(contentsOf: small.appendingPathComponent("logo.png"))
        let item = try Data(contentsOf: small.appendingPathComponent("item.png"))
        @Sendable func form(_ parts: [(String, String?, Data)], boundary: String) -> ByteBuffer {
            var body = Data()
            for (name, type, contents) in parts {
                body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(name)\"\r\n".utf8)
                if let type { body += Data("Content-Type: \(type)\r\n".utf8) }
                body += Data("\r\n".utf8) + contents + Data("\r\n".utf8)
            }
            return ByteBuffer(bytes: body + Data("--\(boundary)--\r\n".utf8))
        }
        let parts: [(String, String?, Data)] = [
            ("order.json", "application/json", orderJSON), ("logo.png", "image/png", logo), ("item.png", "image/png", item),
        ]
        try await OrderContentRoutesTests.service(fixture).application(host: "127.0.0.1", port: 0).test(.router) { client in
            func put(_ body: ByteBuffer, boundary: String) async throws -> TestResponse {
                try await client.executeRequest(
                    uri: Self.content, method: .put,
                    headers: [
                        .authorization: "Bearer \(token)", .contentType: "multipart/form-data; boundary=\(boundary)",
                        HTTPField.Name("Idempotency-Key")!: "upload-1",
                    ], body: body)
            }
            let first = try await put(form(parts, boundary: "----curl-5f2a"), boundary: "----curl-5f2a")
            #expect(first.status == .ok, "\(String(buffer: first.body))")
            let retry = try await put(form(parts, boundary: "python-requests-91c0"), boundary: "python-requests-91c0")
            #expect(retry.status == .ok && retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(Data(buffer: retry.body) == Data(buffer: first.body))

            let otherType = parts.map { ($0.0, $0.0 == "logo.png" ? "application/octet-stream" : $0.1, $0.2) }
            let otherOrder = [parts[0], parts[2], parts[1]]
            let otherBytes = [parts[0], parts[1], ("item.png", "image/png", logo)]
            for changed in [otherType, otherOrder, otherBytes] {
                let boundary = "b-\(UUID().uuidString.prefix(8))"
                let reused = try await put(form(changed, boundary: boundary), boundary: boundary)
                #expect(reused.status == .unprocessableContent, "\(String(buffer: reused.body))")
                #expect(try Self.error(reused).code == "request.idempotencyKeyReused")
            }
        }
        #expect(try await fixture.wallet.orders.history(Self.identifier).count == 2, "one new version")
    }

    @Test(
        "a part named as a file the service writes is refused, not dropped (item 4)",
        arguments: ["manifest.json", "signature", "SIGNATURE", "Manifest.JSON"])
    func reservedNames(_ name: String) async throws {
        let (fixture, token) = try await OrderContentRoutesTests.fixture()
        try await OrderContentRoutesTests.service(fixture).application(host: "127.0.0.1", port: 0).test(.router) { client in
            let refused = try await client.executeRequest(
                uri: Self.content, method: .put,
                headers: [
                    .authorization: "Bearer \(token)", .contentType: "multipart/form-data; boundary=wallet-orders-boundary",
                ], body: OrderContentRoutesTests.multipart([("order.json", try Self.orderJSON()), (name, Data("{}".utf8))]))
            #expect(refused.status == .badRequest, "\(String(buffer: refused.body))")
            #expect(try Self.error(refused) == ("authoring.reservedFileName", name))
        }
        #expect(try await fixture.wallet.orders.history(Self.identifier).count == 1)
    }

    @Test("authored updatedAt and createdAt always carry three fractional digits (item 7)")
    func timestampWidth() async throws {
        let (fixture, token) = try await OrderContentRoutesTests.fixture()
        try await OrderContentRoutesTests.service(fixture).application(host: "127.0.0.1", port: 0).test(.router) { client in
            for _ in 0..<3 {
                let patched = try await client.executeRequest(
                    uri: Self.content, method: .patch,
                    headers: [.authorization: "Bearer \(token)", .contentType: "application/merge-patch+json"],
                    body: ByteBuffer(string: #"{"status":"completed"}"#))
                let updatedAt = try #require(try OrderContentRoutesTests.json(patched)["updatedAt"] as? String)
                #expect(updatedAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(updatedAt)")
                let stored = try #require(try await fixture.wallet.orders.decodedOrder(Self.identifier))
                #expect(stored.updatedAt.text == updatedAt, "the stored order.json says the same")
            }
        }
    }

    @Test("without a public URL authoring is refused, 503 authoring.publicURLRequired, nothing saved (issue 53, item 6)")
    func publicURLRequired() async throws {
        let (fixture, token) = try await OrderContentRoutesTests.fixture()
        let service = OrderContentRoutesTests.service(fixture, allowingMerchantURL: false, publicURL: nil)
        try await service.application(host: "127.0.0.1", port: 0).test(.router) { client in
            let patched = try await client.executeRequest(
                uri: Self.content, method: .patch,
                headers: [.authorization: "Bearer \(token)", .contentType: "application/merge-patch+json"],
                body: ByteBuffer(string: #"{"status":"completed"}"#))
            #expect(patched.status == .serviceUnavailable, "\(String(buffer: patched.body))")
            #expect(try Self.error(patched) == ("authoring.publicURLRequired", "webServiceURL"))
        }
        #expect(try await fixture.wallet.orders.history(Self.identifier).count == 1, "nothing saved")
        // The type's allowed URL, stored, is a web service: authoring goes on without a public URL.
        let allowing = OrderContentRoutesTests.service(fixture, publicURL: nil)
        try await allowing.application(host: "127.0.0.1", port: 0).test(.router) { client in
            let patched = try await client.executeRequest(
                uri: Self.content, method: .patch,
                headers: [.authorization: "Bearer \(token)", .contentType: "application/merge-patch+json"],
                body: ByteBuffer(string: #"{"status":"completed"}"#))
            #expect(patched.status == .ok, "\(String(buffer: patched.body))")
        }
    }

    @Test("docs/authoring.md's Swift block, built as Snippets/ApplePayOrderDetails, hands Apple Pay the answer's orderDetails")
    func applePaySnippet() async throws {
        let (fixture, token) = try await OrderContentRoutesTests.fixture()
        let application = OrderContentRoutesTests.service(fixture, allowingMerchantURL: false).application(
            host: "127.0.0.1", port: 0)
        let body = try await application.test(.router) { client in
            let patched = try await client.executeRequest(
                uri: Self.content, method: .patch,
                headers: [.authorization: "Bearer \(token)", .contentType: "application/merge-patch+json"],
                body: ByteBuffer(string: #"{"status":"completed"}"#))
            #expect(patched.status == .ok)
            return Data(buffer: patched.body)
        }
        let answer = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let details = try #require(answer["orderDetails"] as? [String: Any])
        let snippet = OrdersBinary.url.deletingLastPathComponent().appendingPathComponent("ApplePayOrderDetails")
        let run = try await OrdersProcess.run(
            executable: snippet, [], stdinText: String(decoding: body, as: UTF8.self), in: TestArchiveTable.directory)
        #expect(run.status == 0, "\(run.stderr)")
        let printed = run.stdout
        let expected = ["orderTypeIdentifier", "orderIdentifier", "webServiceURL", "authenticationToken"].map {
            details[$0] as? String ?? "missing \($0)"
        }
        #expect(printed.split(separator: "\n").map(String.init) == expected)
        #expect(expected[2] == "https://wallet.example.com/")
    }

    /// Where the concurrent-writers test runs: an `orders serve` process on SQLite, or on each
    /// PostgreSQL route (directly, through PgBouncer).
    static let backends = ["sqlite"] + TestPostgres.routes

    @Test(
        "30 PATCHes of one order at once: every one answered 200, 30 versions, updatedAt strictly increasing (item 9)",
        arguments: backends)
    func concurrentWriters(_ backend: String) async throws {
        let (wallet, location) = try await ServiceFixture.serveStore(backend)
        _ = try await wallet.orders.saveOrder(signedArchive: try TestOrderArchive.make())
        try await ServiceFixture.addSigningIdentity(to: wallet)
        let key = try await wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType]).token
        let arguments = [
            "--allow-web-service-url", "\(ServiceFixture.shopType)=\(OrderContentRoutesTests.merchantURL)",
        ]
        let server = try await ServeProcess.start(location: location, arguments: arguments)
        let client = LoopbackClient(port: server.port)
        let writers = 30
        let answers = try await withThrowingTaskGroup(of: ServiceResponse.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    try await client.send(
                        .patch, Self.content,
                        headers: [.authorization: "Bearer \(key)", .contentType: "application/merge-patch+json"],
                        body: Data(#"{"orderNumber":"writer-\#(writer)"}"#.utf8))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await client.shutdown()
        await server.stop()
        #expect(answers.filter { $0.status == .ok }.count == writers, "\(answers.filter { $0.status != .ok }.map(\.text))")
        let history = try await wallet.orders.history(Self.identifier)
        #expect(history.count == 1 + writers)
        let times = history.map(\.updatedAt)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        try await wallet.close()
    }

    @Test("a 409 authoring.contended says when to try again")
    func contendedRetryAfter() {
        let error = AuthoringError.contended(attempts: 4)
        #expect(HTTPStatusTable.status(of: error) == .conflict)
        #expect(HTTPStatusTable.headers(of: error)[.retryAfter] == "1")
    }
}
