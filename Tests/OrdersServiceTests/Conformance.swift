import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OrderStorage
import TestArchiveTable
import Testing
import WalletOrders

/// The documented contract of `orders serve`, one request per status code and header, run in
/// order against a client of a live server: in-process (HummingbirdTesting) or the built binary.
/// Every row records what it checked, and the suite asserts that every documented status of
/// every endpoint was produced.
struct Conformance {
    let client: any ServiceClient
    let fixture: ServiceFixture
    /// A key for the shop's order type only.
    let apiKey: String
    /// The statuses each endpoint answered.
    var covered: [String: Set<Int>] = [:]

    init(client: any ServiceClient, fixture: ServiceFixture, apiKey: String) {
        self.client = client
        self.fixture = fixture
        self.apiKey = apiKey
    }

    @discardableResult
    mutating func row(
        _ endpoint: String, _ method: HTTPRequest.Method, _ path: String, headers: HTTPFields = [:], body: Data? = nil,
        expect status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ServiceResponse {
        let response = try await client.send(method, path, headers: headers, body: body)
        #expect(
            response.status == status,
            "\(method) \(path): \(response.status.code) \(response.text.prefix(300))",
            sourceLocation: sourceLocation)
        #expect(
            response.headers[try #require(HTTPField.Name("X-Request-Id"))] != nil, "\(method) \(path) has no X-Request-Id",
            sourceLocation: sourceLocation)
        covered[endpoint, default: []].insert(response.status.code)
        return response
    }

    static let documented: [String: Set<Int>] = [
        "registrations": [200, 204, 400],
        "order": [200, 304, 400, 401],
        "register": [200, 201, 400, 401],
        "unregister": [200, 400, 401],
        "log": [200, 400, 413],
        "put": [200, 201, 401, 403, 409, 413, 415, 422],
        "contains": [200, 400, 404],
        "list": [200, 400],
        "delete": [200, 404],
        "operations": [200, 404, 405],
    ]

    mutating func run() async throws {
        try await deviceProtocol()
        try await merchantAPI()
        try await operations()
        for (endpoint, statuses) in Self.documented {
            #expect(
                covered[endpoint, default: []].isSuperset(of: statuses), "\(endpoint): \(covered[endpoint, default: []].sorted())"
            )
        }
    }

    // MARK: - Apple's Orders web service

    mutating func deviceProtocol() async throws {
        let shop = ServiceFixture.shopType
        let auth: HTTPFields = [.authorization: "AppleOrder \(ServiceFixture.token)"]
        let order1 = ServiceFixture.path("v1", "orders", shop, "ORDER-1")
        let registration = ServiceFixture.path("v1", "devices", "device-1", "registrations", shop, "ORDER-1")
        let registrations = ServiceFixture.path("v1", "devices", "device-1", "registrations", shop)

        // 1. An unknown device: 204.
        try await row("registrations", .get, registrations, expect: .noContent)

        // 3. Registering: 401 alike for no token, a wrong token and an unknown order, each with
        // the scheme to use.
        let pushToken = Data(#"{"pushToken":"\#(String(repeating: "a1", count: 32))"}"#.utf8)
        let missing = try await row("register", .post, registration, body: pushToken, expect: .unauthorized)
        let wrong = try await row(
            "register", .post, registration, headers: [.authorization: "AppleOrder wrong"], body: pushToken, expect: .unauthorized
        )
        let unknown = try await row(
            "register", .post, ServiceFixture.path("v1", "devices", "device-1", "registrations", shop, "NO-SUCH-ORDER"),
            headers: auth, body: pushToken, expect: .unauthorized)
        #expect(missing.body == wrong.body && wrong.body == unknown.body, "401 bodies differ")
        for answer in [missing, wrong, unknown] {
            #expect(answer.headers[.wwwAuthenticate] == #"AppleOrder realm="orders""#)
        }
        try await row("register", .post, registration, headers: auth, body: Data(#"{"pushToken":7}"#.utf8), expect: .badRequest)
        // APNs tokens are hex digits; device identifiers letters, digits, '.', '_', '-' (≤ 128
        // bytes); a control character in any path identifier is refused before the store is asked.
        for token in ["a1b2c3", "token-1", String(repeating: "g", count: 64), String(repeating: "a", count: 65)] {
            let refused = try await row(
                "register", .post, registration, headers: auth, body: Data(#"{"pushToken":"\#(token)"}"#.utf8),
                expect: .badRequest)
            #expect(refused.text.contains(#""code":"webService.invalidPushToken""#))
        }
        for device in ["a b", String(repeating: "d", count: 129), "dev/ice", "ü"] {
            let path = ServiceFixture.path("v1", "devices", device, "registrations", shop, "ORDER-1")
            let refused = try await row("register", .post, path, headers: auth, body: pushToken, expect: .badRequest)
            #expect(refused.text.contains(#""code":"webService.invalidDeviceIdentifier""#), "\(device)")
            try await row("unregister", .delete, path, headers: auth, expect: .badRequest)
        }
        try await row(
            "registrations", .get,
            ServiceFixture.path("v1", "devices", String(repeating: "d", count: 129), "registrations", shop),
            expect: .badRequest)
        for control in ["%00", "%0A", "%1B", "%7F", "%C2%85"] {
            let refused = try await row(
                "register", .post, "/v1/devices/a\(control)b/registrations/\(shop)/ORDER-1", headers: auth, body: pushToken,
                expect: .badRequest)
            #expect(refused.text.contains(#""code":"request.invalidParameter""#), "\(control)")
            try await row("order", .get, "/v1/orders/\(shop)/ORDER\(control)1", headers: auth, expect: .badRequest)
        }
        try await row("register", .post, registration, headers: auth, body: Data("not json".utf8), expect: .badRequest)
        try await row("register", .post, registration, headers: auth, body: pushToken, expect: .created)
        // The scheme is case-insensitive; registering again updates the push token.
        try await row(
            "register", .post, registration, headers: [.authorization: "appleORDER \(ServiceFixture.token)"],
            body: Data(#"{"pushToken":"\#(String(repeating: "D4", count: 32))"}"#.utf8), expect: .ok)

        // 1. The registered order, then nothing after its tag; a garbage tag means everything.
        let listed = try await row("registrations", .get, registrations, expect: .ok)
        let changes = try JSONDecoder().decode(ChangedOrdersBody.self, from: listed.body)
        #expect(changes.orderIdentifiers == ["ORDER-1"])
        try await row("registrations", .get, registrations + "?ordersModifiedSince=\(changes.lastModified)", expect: .noContent)
        try await row("registrations", .get, registrations + "?lastModified=\(changes.lastModified)", expect: .noContent)
        try await row("registrations", .get, registrations + "?ordersModifiedSince=yesterday", expect: .ok)
        try await row(
            "registrations", .get, ServiceFixture.path("v1", "devices", "device-1", "registrations", ServiceFixture.otherType),
            expect: .noContent)

        // 2. The archive byte for byte, its headers, and 304 by ETag and by date.
        let served = try await row("order", .get, order1, headers: auth, expect: .ok)
        #expect(served.body == fixture.shopV1)
        #expect(served.headers[.contentType] == "application/vnd.apple.finance.order")
        #expect(served.headers[.lastModified] == "Thu, 15 Jan 2026 09:30:00 GMT")
        let etag = try #require(served.headers[.eTag])
        #expect(etag.hasPrefix("\"") && etag.count == 66)
        try await row("order", .get, order1, headers: auth + [.ifNoneMatch: etag], expect: .notModified)
        try await row("order", .get, order1, headers: auth + [.ifNoneMatch: "W/\(etag), \"other\""], expect: .notModified)
        let again = try await row("order", .get, order1, headers: auth + [.ifNoneMatch: "\"other\""], expect: .ok)
        #expect(again.body == fixture.shopV1, "the archive as sent from the cache")
        #expect(again.headers[.eTag] == etag && again.headers[.lastModified] == served.headers[.lastModified])
        try await row(
            "order", .get, order1, headers: auth + [.ifModifiedSince: "Thu, 15 Jan 2026 09:30:00 GMT"], expect: .notModified)
        try await row(
            "order", .get, order1, headers: auth + [.ifModifiedSince: "Thursday, 15-Jan-26 10:00:00 GMT"], expect: .notModified)
        try await row("order", .get, order1, headers: auth + [.ifModifiedSince: "Thu Jan 15 09:30:00 2026"], expect: .notModified)
        try await row("order", .get, order1, headers: auth + [.ifModifiedSince: "1768469400"], expect: .notModified)
        try await row("order", .get, order1, headers: auth + [.ifModifiedSince: "Thu, 15 Jan 2026 09:29:59 GMT"], expect: .ok)
        try await row("order", .get, order1, headers: auth + [.ifModifiedSince: "soon"], expect: .ok)
        let noToken = try await row("order", .get, order1, expect: .unauthorized)
        let wrongToken = try await row("order", .get, order1, headers: [.authorization: "AppleOrder nope"], expect: .unauthorized)
        let unknownOrder = try await row(
            "order", .get, ServiceFixture.path("v1", "orders", shop, "NO-SUCH-ORDER"), headers: auth, expect: .unauthorized)
        try await row("order", .get, order1, headers: [.authorization: "Bearer \(ServiceFixture.token)"], expect: .unauthorized)
        #expect(noToken.body == wrongToken.body && wrongToken.body == unknownOrder.body, "401 bodies differ")
        // HEAD answers as GET, without the body.
        let head = try await row("order", .head, order1, headers: auth, expect: .ok)
        #expect(head.body.isEmpty)
        #expect(head.headers[.eTag] == etag && head.headers[.contentLength] == String(fixture.shopV1.count))
        // Identifiers are any strings; many order types on one instance.
        try await row(
            "order", .get, ServiceFixture.path("v1", "orders", shop, ServiceFixture.oddIdentifier), headers: auth, expect: .ok)
        try await row(
            "order", .get, ServiceFixture.path("v1", "orders", ServiceFixture.otherType, "OTHER-1"), headers: auth, expect: .ok)

        // 4. Unregistering: idempotent, authenticated.
        try await row("unregister", .delete, registration, headers: [.authorization: "AppleOrder nope"], expect: .unauthorized)
        try await row("unregister", .delete, registration, headers: auth, expect: .ok)
        try await row("unregister", .delete, registration, headers: auth, expect: .ok)
        try await row("registrations", .get, registrations, expect: .noContent)

        // 5. Logs: both shapes, malformed, too large.
        try await row("log", .post, "/v1/log", body: Data(#"{"logs":["a device said hello"]}"#.utf8), expect: .ok)
        try await row("log", .post, "/v1/log", body: Data(#"["bare", "array"]"#.utf8), expect: .ok)
        try await row("log", .post, "/v1/log", body: Data(#"{"logs": "#.utf8), expect: .badRequest)
        try await row("log", .post, "/v1/log", body: Data(repeating: 0x20, count: 70_000), expect: .contentTooLarge)
    }

    // MARK: - Merchant API

    mutating func merchantAPI() async throws {
        let key: HTTPFields = [.authorization: "Bearer \(apiKey)"]
        let archive: HTTPFields = key + [.contentType: "application/vnd.apple.finance.order"]
        let newOrder = try TestOrderArchive.make(orderIdentifier: "ORDER-NEW")

        let anonymous = try await row("put", .put, "/api/v1/orders", body: newOrder, expect: .unauthorized)
        #expect(anonymous.headers[.wwwAuthenticate] == #"Bearer realm="orders""#)
        try await row(
            "put", .put, "/api/v1/orders",
            headers: [.authorization: "Bearer wok_0000000000000000_" + String(repeating: "0", count: 64)], body: newOrder,
            expect: .unauthorized)
        let created = try await row("put", .put, "/api/v1/orders", headers: archive, body: newOrder, expect: .created)
        #expect(created.text.contains(#""result":"added""#))
        try await row(
            "put", .put, "/api/v1/orders", headers: key + [.contentType: "application/octet-stream"], body: newOrder, expect: .ok)
        try await row("put", .put, "/api/v1/orders", headers: archive, body: fixture.shopV2, expect: .ok)
        let older = try await row("put", .put, "/api/v1/orders", headers: archive, body: fixture.shopV1, expect: .conflict)
        #expect(older.text.contains(#""result":"newerExisting""#))
        var tampered = fixture.shopV2
        tampered[tampered.count / 2] ^= 0xFF
        let invalid = try await row(
            "put", .put, "/api/v1/orders", headers: archive, body: tampered, expect: .unprocessableContent)
        #expect(invalid.text.contains(#""code":"store.invalidArchive""#))
        #expect(invalid.text.contains(#""report":{"#))
        try await row(
            "put", .put, "/api/v1/orders", headers: archive,
            body: try ServiceFixture.otherTypeArchive(updatedAt: "2026-03-01T00:00:00Z"), expect: .forbidden)
        try await row(
            "put", .put, "/api/v1/orders", headers: key + [.contentType: "text/plain"], body: newOrder,
            expect: .unsupportedMediaType)
        try await row(
            "put", .put, "/api/v1/orders", headers: archive, body: Data(repeating: 0, count: (10 << 20) + 1),
            expect: .contentTooLarge)
        try await row("put", .put, "/api/v1/orders", headers: archive, body: Data("PK".utf8), expect: .unprocessableContent)
        try await row(
            "put", .put, "/api/v1/orders", headers: key + [.contentType: "application/json"], body: Data("{}".utf8),
            expect: .unsupportedMediaType)

        let order1 = ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-1")
        let exists = try await row("contains", .get, order1, headers: key, expect: .ok)
        #expect(exists.text.contains(#""result":"exists""#))
        let newer = try await row("contains", .get, order1 + "?updatedDate=2026-01-15T09:30:00Z", headers: key, expect: .ok)
        #expect(newer.text.contains(#""result":"newerExists""#))
        try await row("contains", .get, order1 + "?updatedDate=last%20week", headers: key, expect: .badRequest)
        let missing = try await row(
            "contains", .get, ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "NOPE"), headers: key,
            expect: .notFound)
        #expect(missing.text.contains(#""result":"notFound""#))
        // Another order type is not found for this key, whether stored or not.
        try await row(
            "contains", .get, ServiceFixture.path("api", "v1", "orders", ServiceFixture.otherType, "OTHER-1"), headers: key,
            expect: .notFound)

        let page = try await row("list", .get, "/api/v1/orders?limit=2", headers: key, expect: .ok)
        let first = try JSONDecoder().decode(PageBody.self, from: page.body)
        #expect(first.orders.count == 2)
        let cursor = try #require(first.nextCursor)
        let rest = try await row("list", .get, "/api/v1/orders?limit=2&cursor=\(cursor)", headers: key, expect: .ok)
        let second = try JSONDecoder().decode(PageBody.self, from: rest.body)
        #expect(second.orders.count == 1 && second.nextCursor == nil)
        #expect(
            Set((first.orders + second.orders).map(\.orderIdentifier)) == ["ORDER-1", "ORDER-NEW", ServiceFixture.oddIdentifier])
        try await row("list", .get, "/api/v1/orders?limit=0", headers: key, expect: .badRequest)
        try await row("list", .get, "/api/v1/orders?cursor=bogus", headers: key, expect: .badRequest)
        // An empty cursor is none: the first page (the OpenAPI document allows it).
        let firstAgain = try await row("list", .get, "/api/v1/orders?limit=2&cursor=", headers: key, expect: .ok)
        #expect(try JSONDecoder().decode(PageBody.self, from: firstAgain.body).orders.count == 2)

        let newPath = ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-NEW")
        try await row("delete", .delete, newPath, headers: key, expect: .ok)
        try await row("delete", .delete, newPath, headers: key, expect: .notFound)
    }

    // MARK: - Health, metrics, the OpenAPI document, unknown routes

    mutating func operations() async throws {
        let health = try await row("operations", .get, "/health", expect: .ok)
        #expect(health.text.hasPrefix(#"{"status":"ok","version":""#))
        let metrics = try await row("operations", .get, "/metrics", expect: .ok)
        let text = metrics.text
        #expect(text.contains("orders_http_requests_total{"))
        #expect(text.contains(#"route="/v1/orders/{orderTypeIdentifier}/{orderIdentifier}""#))
        #expect(text.contains("orders_push_outbox_depth"))
        let document = try await row("operations", .get, "/api/v1/openapi.json", expect: .ok)
        let committed = try String(
            contentsOf: TestArchiveTable.directory.deletingLastPathComponent().appendingPathComponent("docs/openapi.json"),
            encoding: .utf8)
        #expect(document.text == committed)
        let unknown = try await row("operations", .get, "/v2/nothing", expect: .notFound)
        #expect(unknown.text.contains(#""code":"request.noRoute""#))
        // HEAD mirrors GET; a method no route of a known path takes is 405 with the ones it takes.
        let head = try await row("operations", .head, "/health", expect: .ok)
        #expect(head.body.isEmpty && head.headers[.contentLength] == String(health.text.utf8.count))
        for (method, path, allowed) in [
            (HTTPRequest.Method.patch, "/health", "GET, HEAD"), (.post, "/metrics", "GET, HEAD"),
            (.delete, "/api/v1/orders", "GET, HEAD, PUT"), (.options, "/v1/log", "POST"),
            (.put, ServiceFixture.path("v1", "orders", ServiceFixture.shopType, "ORDER-1"), "GET, HEAD"),
            (.get, ServiceFixture.path("v1", "devices", "d", "registrations", ServiceFixture.shopType, "O"), "DELETE, POST"),
        ] {
            let refused = try await row("operations", method, path, expect: .methodNotAllowed)
            #expect(refused.headers[.allow] == allowed, "\(method) \(path)")
            #expect(refused.text.contains(#""code":"request.methodNotAllowed""#))
        }
    }
}

struct ChangedOrdersBody: Decodable {
    var orderIdentifiers: [String]
    var lastModified: String
}

struct PageBody: Decodable {
    struct Order: Decodable { var orderIdentifier: String }
    var orders: [Order]
    var nextCursor: String?
}

extension HTTPFields {
    static func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
        var result = lhs
        for field in rhs { result.append(field) }
        return result
    }
}
