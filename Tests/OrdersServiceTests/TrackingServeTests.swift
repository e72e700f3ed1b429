import Foundation
import HTTPTypes
import Logging
import OrderPackage
import OrderTracking
import StorageContract
import TestArchiveTable
import Testing
import WalletOrders
import WalletPostgres

/// Issue 55's end to end, through `orders serve` and the CLI: a provider's endpoint configured
/// with `orders tracking add`, a device registered for an authored order, AfterShip's
/// `tracking_update` posted → one version and one push, the device's GET shows the status; then
/// `delivered` → the next version. Refusals answer their documented statuses and change nothing.
@Suite("Tracking webhooks through orders serve")
struct TrackingServeTests {
    static let backends = ["sqlite"] + TestPostgres.routes.prefix(1)
    static let publicURL = "https://wallet.example.com/"
    static let identifier = FullyQualifiedOrderIdentifier(
        orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "TRACKED-1")
    static let number = "1Z999AA10123456784"

    /// An AfterShip `tracking_update` for the order's parcel, signed now.
    static func afterShip(
        _ id: String, tag: String, message: String, ts: Int = Int(Date().timeIntervalSince1970)
    ) -> Data {
        return Data(
            #"{"event_id":"\#(id)","event":"tracking_update","msg":{"tracking_number":"1Z 999 AA1 0123456784","slug":"ups","tag":"\#(tag)","subtag":"\#(tag)_001","checkpoints":[{"checkpoint_time":"2026-12-07T07:40:00+01:00","message":"\#(message)","tag":"\#(tag)"}]},"ts":\#(ts)}"#
                .utf8)
    }

    /// The shipping status of the order as a device downloads it.
    static func deviceStatus(_ client: LoopbackClient, token: String) async throws -> (status: String?, text: String?) {
        let answer = try await client.send(
            .get, ServiceFixture.path("v1", "orders", identifier.orderTypeIdentifier, identifier.orderIdentifier),
            headers: [.authorization: "AppleOrder \(token)"], body: nil)
        #expect(answer.status == .ok)
        let zip = try ZipArchive(reading: answer.body)
        let orderJSON = try #require(zip["order.json"])
        let order = try #require(try JSONSerialization.jsonObject(with: orderJSON) as? [String: Any])
        let fulfillment = try #require((order["fulfillments"] as? [[String: Any]])?.first)
        return (fulfillment["status"] as? String, fulfillment["statusDescription"] as? String)
    }

    @Test(
        "AfterShip's tracking_update → one signed version and one push, the device reads outForDelivery; delivered → the next",
        arguments: backends)
    func endToEnd(_ backend: String) async throws {
        let (wallet, location) = try await ServiceFixture.serveStore(backend)
        try await ServiceFixture.addSigningIdentity(to: wallet)
        var order = try #require(
            JSONSerialization.jsonObject(with: TestArchiveTable.data("sources/small/order.json")) as? [String: Any])
        order["orderIdentifier"] = Self.identifier.orderIdentifier
        order["createdAt"] = nil
        order["webServiceURL"] = nil
        order["authenticationToken"] = nil
        var fulfillments = try #require(order["fulfillments"] as? [[String: Any]])
        fulfillments[0]["trackingNumber"] = Self.number
        order["fulfillments"] = fulfillments
        let small = TestArchiveTable.directory.appendingPathComponent("sources/small")
        let authored = try await wallet.authorOrder(
            Self.identifier,
            content: .replace(
                orderJSON: try JSONSerialization.data(withJSONObject: order),
                resources: try OrderPackageBuilder.sources(in: small)),
            webService: WebServiceURLPolicy(serviceURL: Self.publicURL))
        let token = authored.orderDetails.authenticationToken
        _ = try await wallet.webService.register(
            deviceIdentifier: "phone", pushToken: ServiceFixture.pushToken, for: Self.identifier, authenticationToken: token)
        let apiKey = try await wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType]).token

        // The endpoint, as an operator configures it.
        let folder = try TemporaryDirectory.make("tracking-secret")
        let secretFile = folder.appendingPathComponent("aftership.secret")
        try Data("aftership-webhook-secret-1\n".utf8).write(to: secretFile)
        chmod(secretFile.path, 0o600)
        let added = try await OrdersProcess.run(
            [
                "tracking", "add", "--provider", "aftership", "--order-type", ServiceFixture.shopType, "--secret-file",
                secretFile.path,
            ]
                + location)
        #expect(added.status == 0, "\(added.stderr)")
        let path = try #require(added.lines.first)
        #expect(path.hasPrefix("/api/v1/tracking/aftership/trk_"))
        #expect(!added.stdout.contains("aftership-webhook-secret-1") && !added.stderr.contains("aftership-webhook-secret-1"))
        let listed = try await OrdersProcess.run(["tracking", "list"] + location)
        #expect(listed.status == 0 && listed.stdout.contains("aftership") && !listed.stdout.contains("secret-1"))

        let server = try await ServeProcess.start(
            location: location, arguments: ["--public-url", Self.publicURL])
        let client = LoopbackClient(port: server.port)
        let scheme = try #require(TrackingSignature(provider: .afterShip))
        let signature = try #require(HTTPField.Name(scheme.header))
        func post(
            _ body: Data, secret: String = "aftership-webhook-secret-1", to target: String = path
        ) async throws
            -> ServiceResponse
        {
            try await client.send(
                .post, target,
                headers: [.contentType: "application/json", signature: scheme.value(for: body, secret: secret)], body: body)
        }
        func pushes() -> Int { server.standardError.components(separatedBy: "would push").count - 1 }

        // Refused: another secret (401, with how to authenticate), an unknown endpoint (404), too large (413).
        let outForDelivery = Self.afterShip("evt-1", tag: "OutForDelivery", message: "With the courier since 07:40")
        let forged = try await post(outForDelivery, secret: "guessed")
        #expect(forged.status == .unauthorized, "\(forged.text)")
        #expect(forged.headers[.wwwAuthenticate] == #"Signature realm="tracking""#)
        #expect(forged.text.contains("tracking.badSignature"))
        let stale = try await post(
            Self.afterShip("evt-0", tag: "InTransit", message: "Old", ts: Int(Date().timeIntervalSince1970) - 400))
        #expect(stale.status == .unauthorized && stale.text.contains("tracking.stale"), "\(stale.text)")
        #expect(try await post(outForDelivery, to: "/api/v1/tracking/aftership/trk_unknown").status == .notFound)
        let unsigned = try await client.send(.post, path, headers: [.contentType: "application/json"], body: outForDelivery)
        #expect(unsigned.status == .unauthorized && unsigned.text.contains("tracking.unsigned"), "\(unsigned.text)")
        #expect(try await post(Data(count: TrackingLimits.maximumBodySize + 1)).status == .contentTooLarge)
        #expect(try await wallet.orders.history(Self.identifier).count == 1)

        let first = try await post(outForDelivery)
        #expect(first.status == .ok, "\(first.text)")
        let answer = try #require(try JSONSerialization.jsonObject(with: first.body) as? [String: Any])
        #expect(answer["outcome"] as? String == "applied")
        #expect((answer["versions"] as? [[String: Any]])?.count == 1)
        #expect(try await Self.deviceStatus(client, token: token) == ("outForDelivery", "With the courier since 07:40"))
        #expect(await Poll.until { pushes() == 1 }, "one push: \(server.standardError.suffix(2000))")
        #expect(try await wallet.orders.history(Self.identifier).count == 2)

        // The same delivery again (a provider's retry) changes nothing.
        let retried = try await post(outForDelivery)
        #expect(retried.status == .ok)
        #expect(retried.text.contains(#""outcome":"duplicate""#), "\(retried.text)")

        let delivered = try await post(Self.afterShip("evt-2", tag: "Delivered", message: "Delivered to the front door"))
        #expect(delivered.status == .ok, "\(delivered.text)")
        #expect(try await Self.deviceStatus(client, token: token).status == "delivered")
        #expect(await Poll.until { pushes() == 2 }, "the next push: \(server.standardError.suffix(2000))")
        let history = try await wallet.orders.history(Self.identifier)
        #expect(history.count == 3)
        let applied = try await wallet.appliedTrackingEvents(of: Self.identifier)
        #expect(applied.map(\.eventID) == ["evt-1", "evt-2"])
        #expect(applied.map(\.archiveSHA256) == history.suffix(2).map(\.archiveSHA256))

        // The generic event, with the merchant API key.
        let generic = try await client.send(
            .post, "/api/v1/tracking/events", headers: [.authorization: "Bearer \(apiKey)", .contentType: "application/json"],
            body: Data(
                #"{"eventID":"g-1","trackingNumber":"\#(Self.number)","status":"issue","statusDescription":"Returned to the depot","occurredAt":"2099-01-01T00:00:00Z"}"#
                    .utf8))
        #expect(generic.status == .ok, "\(generic.text)")
        #expect(try await Self.deviceStatus(client, token: token).status == "issue")
        let anonymous = try await client.send(
            .post, "/api/v1/tracking/events", headers: [.contentType: "application/json"], body: Data("{}".utf8))
        #expect(anonymous.status == .unauthorized)

        // An event before its order: kept, then applied by the service's sweep once an order
        // naming the parcel is saved — here by another process.
        let early = try await post(
            Data(
                #"{"event_id":"evt-early","event":"tracking_update","msg":{"tracking_number":"LATE-ORDER-9","slug":"ups","tag":"InTransit","checkpoints":[]},"ts":\#(Int(Date().timeIntervalSince1970))}"#
                    .utf8))
        #expect(early.text.contains(#""outcome":"unmatched""#), "\(early.text)")
        var late = order
        late["orderIdentifier"] = "TRACKED-2"
        fulfillments[0]["trackingNumber"] = "late order 9"
        late["fulfillments"] = fulfillments
        let second = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "TRACKED-2")
        _ = try await wallet.authorOrder(
            second,
            content: .replace(
                orderJSON: try JSONSerialization.data(withJSONObject: late), resources: try OrderPackageBuilder.sources(in: small)
            ),
            webService: WebServiceURLPolicy(serviceURL: Self.publicURL))
        #expect(
            try await Poll.until { try await wallet.orders.history(second).count == 2 },
            "the sweep applied the kept event: \(server.standardError.suffix(2000))")
        #expect(try await wallet.appliedTrackingEvents(of: second).map(\.eventID) == ["evt-early"])

        // Two applied by their deliveries, one by the sweep (counted once its pass ends).
        var metrics = try await client.send(.get, "/metrics", headers: [:], body: nil)
        #expect(
            try await Poll.until {
                metrics = try await client.send(.get, "/metrics", headers: [:], body: nil)
                return metrics.text.contains(#"orders_tracking_events_total{provider="aftership",outcome="applied"} 3"#)
            }, "\(metrics.text)")
        #expect(metrics.text.contains(#"orders_tracking_events_total{provider="aftership",outcome="unmatched"} 1"#))
        #expect(metrics.text.contains(#"orders_tracking_events_total{provider="aftership",outcome="stale"} 1"#))
        #expect(metrics.text.contains(#"orders_tracking_events_total{provider="aftership",outcome="refused"} 4"#))
        #expect(metrics.text.contains(#"orders_tracking_events_total{provider="aftership",outcome="duplicate"} 1"#))
        try await client.shutdown()
        #expect(await server.stop() == 0)

        // Support: the events, and a saved body applied again (already applied: nothing changes).
        let events = try await OrdersProcess.run(["tracking", "events", "--json"] + location)
        #expect(events.status == 0)
        #expect(events.lines.count == 4, "\(events.stdout)")
        let saved = folder.appendingPathComponent("evt-2.json")
        try Self.afterShip("evt-2", tag: "Delivered", message: "Delivered").write(to: saved)
        let replayed = try await OrdersProcess.run(
            ["tracking", "replay", saved.path, "--provider", "aftership", "--public-url", Self.publicURL] + location)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.lines.first == "duplicate")
        let refused = try await OrdersProcess.run(
            ["tracking", "replay", secretFile.path, "--provider", "aftership", "--public-url", Self.publicURL] + location)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("tracking.invalidBody"))
        try await wallet.close()
    }
}
