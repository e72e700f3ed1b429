import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OrderStorage
import OrdersService
import TestArchiveTable
import Testing
import WalletOrders

@Suite("The customer's order page: signed links, one 404 for every bad one, Add to Apple Wallet")
struct CustomerOrderPageTests {
    static let order1 = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")

    static func link(
        _ identifier: FullyQualifiedOrderIdentifier = order1, token: String = ServiceFixture.token,
        lifetime: TimeInterval = 86_400
    ) -> OrderPageLink {
        OrderPageLink(for: identifier, authenticationToken: token, expires: TestOrderArchive.now.addingTimeInterval(lifetime))
    }

    @Test("a signed link: the rendered order, the download button, the pages' security headers; 304 when unchanged")
    func page() async throws {
        let fixture = try await ServiceFixture.make()
        let link = Self.link()
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let response = try await client.executeRequest(uri: link.path, method: .get, headers: [:], body: nil)
            #expect(response.status == .ok)
            let html = String(buffer: response.body)
            #expect(
                html.contains("<article class=\"order\"") && html.contains("Example Shop") && html.contains("Order 123-456-789"))
            #expect(
                html.contains("class=\"add-to-wallet\" href=\"\(link.archivePath.replacingOccurrences(of: "&", with: "&amp;"))\"")
            )
            #expect(html.contains(">Add to Apple Wallet</a>"))
            #expect(!html.contains("<script") && !html.contains("<form"))
            #expect(response.headers[.cacheControl] == "private, no-cache")
            #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            #expect(response.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            let tag = try #require(response.headers[.eTag])
            let again = try await client.executeRequest(uri: link.path, method: .get, headers: [.ifNoneMatch: tag], body: nil)
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            // Another reader's language is another page.
            let german = try await client.executeRequest(
                uri: link.path, method: .get, headers: [.ifNoneMatch: tag, .acceptLanguage: "de-DE, en;q=0.5"], body: nil)
            #expect(german.status == .ok && german.headers[.eTag] != tag)
            #expect(
                String(buffer: german.body).contains("<html lang=\"de-DE\">") && String(buffer: german.body).contains("49,00"))
            // The page's own words too, not only the merchant's.
            #expect(
                String(buffer: german.body).contains("Bestellung 123-456-789")
                    && String(buffer: german.body).contains(">Zahlung<"))
            let css = try await client.executeRequest(uri: "/orders/static/order.css", method: .get, headers: [:], body: nil)
            #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8")
        }
    }

    @Test("Add to Apple Wallet downloads the stored archive byte for byte, as an order")
    func download() async throws {
        let fixture = try await ServiceFixture.make()
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let response = try await client.executeRequest(uri: Self.link().archivePath, method: .get, headers: [:], body: nil)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/vnd.apple.finance.order")
            #expect(response.headers[.contentDisposition] == "attachment; filename=\"order.order\"")
            #expect(Data(buffer: response.body) == fixture.shopV1)
        }
    }

    @Test("wrong, tampered, expired, too long-lived, another order's, and unknown: the same 404 page")
    func oneNotFound() async throws {
        let fixture = try await ServiceFixture.make()
        let good = Self.link()
        var tampered = good
        tampered.signature = String(good.signature.reversed())
        var moved = good
        moved.expires += 1
        let other = FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: ServiceFixture.oddIdentifier)
        var wrongOrder = Self.link(other)
        wrongOrder.identifier = Self.order1
        let unknown = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-9")
        let bad = [
            tampered.path, moved.path, Self.link(lifetime: -1).path, Self.link(lifetime: 401 * 86_400).path, wrongOrder.path,
            Self.link(unknown).path, Self.link(token: "another-token-of-16+").path, "/orders/\(ServiceFixture.shopType)/ORDER-1",
            "/orders/\(ServiceFixture.shopType)/ORDER-1?expires=x&signature=", tampered.archivePath,
            Self.link(unknown).archivePath,
        ]
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            var bodies: Set<Data> = []
            for path in bad {
                let response = try await client.executeRequest(uri: path, method: .get, headers: [:], body: nil)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                bodies.insert(Data(buffer: response.body))
            }
            #expect(bodies.count == 1)
            #expect(String(decoding: bodies.first ?? Data(), as: UTF8.self).contains("This Link Doesn’t Work"))
            // The odd identifier's own link works: percent-encoding round-trips.
            #expect(
                try await client.executeRequest(uri: Self.link(other).path, method: .get, headers: [:], body: nil).status == .ok)
        }
    }

    @Test("a new version with a new token ends the old links; its own work")
    func tokenRotation() async throws {
        let fixture = try await ServiceFixture.make()
        let rotated = try TestOrderArchive.make(updatedAt: "2026-02-01T08:00:00Z") {
            $0["authenticationToken"] = "a-new-token-0123456789abcdef"
        }
        #expect(try await fixture.wallet.orders.saveOrder(signedArchive: rotated) == .added)
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let old = try await client.executeRequest(uri: Self.link().path, method: .get, headers: [:], body: nil)
            #expect(old.status == .notFound)
            let new = Self.link(token: "a-new-token-0123456789abcdef")
            #expect(try await client.executeRequest(uri: new.path, method: .get, headers: [:], body: nil).status == .ok)
            let download = try await client.executeRequest(uri: new.archivePath, method: .get, headers: [:], body: nil)
            #expect(Data(buffer: download.body) == rotated)
        }
    }

    @Test("the merchant API's PUT answers with the customer page's signed path; a newerExisting with none")
    func merchantPut() async throws {
        let fixture = try await ServiceFixture.make()
        let key = try await fixture.wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType])
        let headers: HTTPFields = [.authorization: "Bearer \(key.token)", .contentType: "application/vnd.apple.finance.order"]
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let put = try await client.executeRequest(
                uri: "/api/v1/orders", method: .put, headers: headers, body: ByteBuffer(bytes: fixture.shopV2))
            #expect(put.status == .ok)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(buffer: put.body)) as? [String: Any])
            #expect(answer["result"] as? String == "added")
            let path = try #require(answer["customerPage"] as? String)
            #expect(path.hasPrefix("/orders/\(ServiceFixture.shopType)/ORDER-1?expires="))
            let page = try await client.executeRequest(uri: path, method: .get, headers: [:], body: nil)
            #expect(page.status == .ok && String(buffer: page.body).contains("Add to Apple Wallet"))
            let older = try await client.executeRequest(
                uri: "/api/v1/orders", method: .put, headers: headers, body: ByteBuffer(bytes: fixture.shopV1))
            #expect(older.status == .conflict)
            let refused = try #require(try JSONSerialization.jsonObject(with: Data(buffer: older.body)) as? [String: Any])
            #expect(refused["customerPage"] is NSNull)
        }
    }

    @Test("orders restricted: the customer sees a page with the table's status, never the API's JSON")
    func restricted() async throws {
        let fixture = try await ServiceFixture.make()
        try await fixture.wallet.setRestricted(.orders, true)
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            for path in [Self.link().path, Self.link().archivePath] {
                let response = try await client.executeRequest(uri: path, method: .get, headers: [:], body: nil)
                #expect(response.status == .serviceUnavailable, "\(path)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(String(buffer: response.body).contains("This Order Can’t Be Shown Right Now"))
            }
        }
    }
}
