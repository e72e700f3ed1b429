import Foundation
import OrderTracking
import StorageContract
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders

/// Tracking events applied as authoring is (issue 55), on every backend: matched through the
/// store's tracking-number index, each change one signed version kept with its event, events
/// out of order, twice, before their order, on a shared parcel or a closed order.
@Suite("Tracking events become versions", .serialized)
struct TrackingIngestionTests {
    static let backends = Array(BackendFactory.all.prefix(2))
    static let webService = WebServiceURLPolicy(serviceURL: "https://shop.example.com/wallet/")
    static let type = TestOrderArchive.orderTypeIdentifier
    static let client: ClientIdentifier = "com.example.shop-backend"
    static let secret = "first-secret-0123456789"

    /// A store with the test type's signing identity, the client entitled to the type.
    static func wallet(_ factory: BackendFactory, clock: TestClock) async throws -> WalletStore {
        let wallet = WalletStore(backend: try await factory.make(), configuration: try WalletFixtures.configuration(clock: clock))
        _ = try await wallet.addSigningIdentity(
            orderTypeIdentifier: type, certificate: try TestArchiveTable.data("pki/order.pem"),
            key: .file(path: TestArchiveTable.directory.appendingPathComponent("pki/order.key").path, passphrase: nil),
            intermediates: [try TestArchiveTable.data("pki/wwdr.pem")], activation: .immediately)
        try await wallet.entitle(client, toOrderTypes: [type])
        return wallet
    }

    /// Authors `id` whose one shipping fulfillment names `number`.
    @discardableResult
    static func order(
        _ wallet: WalletStore, _ id: String, number: String, status: String = "open", fulfillment: String = "onTheWay"
    ) async throws -> FullyQualifiedOrderIdentifier {
        let sources = TestArchiveTable.directory.appendingPathComponent("sources/small")
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: sources.appendingPathComponent("order.json")))
                as? [String: Any])
        json["orderIdentifier"] = id
        json["status"] = status
        var fulfillments = try #require(json["fulfillments"] as? [[String: Any]])
        fulfillments[0]["trackingNumber"] = number
        fulfillments[0]["status"] = fulfillment
        json["fulfillments"] = fulfillments
        let identifier = FullyQualifiedOrderIdentifier(orderTypeIdentifier: type, orderIdentifier: id)
        _ = try await wallet.authorOrder(
            identifier,
            content: .replace(
                orderJSON: try JSONSerialization.data(withJSONObject: json),
                resources: try OrderPackageBuilder.sources(in: sources)), webService: webService)
        return identifier
    }

    /// A generic event (docs/tracking.md) from the client.
    static func generic(
        _ wallet: WalletStore, id: String, number: String, status: String, at occurredAt: String = "2026-12-07T06:40:00Z"
    ) async throws -> TrackingResult {
        let body = #"""
            {"eventID": "\#(id)", "carrier": "DHL", "trackingNumber": "\#(number)", "status": "\#(status)",
             "statusDescription": "\#(status) (scan \#(id))", "occurredAt": "\#(occurredAt)"}
            """#
        return try await wallet.merchantOrders(for: client).receiveTrackingEvent(Data(body.utf8), webService: webService)
    }

    /// The shipping fulfillment's status and description in the current version.
    static func fulfillment(
        _ wallet: WalletStore, _ identifier: FullyQualifiedOrderIdentifier
    ) async throws -> (
        status: String?, description: String?
    ) {
        let order = try #require(try await wallet.orders.decodedOrder(identifier))
        guard case .shipping(let shipping)? = order.fulfillments?.first else { return (nil, nil) }
        return (shipping.status.rawValue, shipping.statusDescription)
    }

    @Test("an event makes one signed version naming its event; the same event again changes nothing", arguments: backends)
    func appliedOnce(_ factory: BackendFactory) async throws {
        let clock = TestClock()
        let wallet = try await Self.wallet(factory, clock: clock)
        let identifier = try await Self.order(wallet, "T-1", number: "JD 0146-0000 3828")
        clock.advance(seconds: 5)
        let result = try await Self.generic(wallet, id: "scan-1", number: "jd014600003828", status: "outForDelivery")
        #expect(result.outcome == .applied)
        #expect(result.versions.map(\.identifier) == [identifier])
        let now = try await Self.fulfillment(wallet, identifier)
        #expect(now.status == "outForDelivery")
        #expect(now.description == "outForDelivery (scan scan-1)")
        let history = try await wallet.orders.history(identifier)
        #expect(history.count == 2)
        let applied = try await wallet.appliedTrackingEvents(of: identifier)
        #expect(applied.map(\.eventID) == ["scan-1"])
        #expect(applied.map(\.provider) == ["generic"])
        #expect(applied.first?.archiveSHA256 == history.last?.archiveSHA256)
        #expect(applied.first?.receivedAt == (try await wallet.trackingEvents()).first?.receivedAt)
        let archive = try #require(try await wallet.orders.archive(identifier))
        #expect(wallet.configuration.verifier.verify(archive).isValid, "the version is signed and valid")

        clock.advance(seconds: 5)
        let again = try await Self.generic(wallet, id: "scan-1", number: "JD014600003828", status: "outForDelivery")
        #expect(again.outcome == .duplicate)
        #expect(again.versions.isEmpty)
        #expect(try await wallet.orders.history(identifier).count == 2)
        try await wallet.close()
    }

    @Test("out of order: an event that occurred before the last applied changes nothing", arguments: backends)
    func outOfOrder(_ factory: BackendFactory) async throws {
        let clock = TestClock()
        let wallet = try await Self.wallet(factory, clock: clock)
        let identifier = try await Self.order(wallet, "T-2", number: "PARCEL2")
        let delivered = try await Self.generic(
            wallet, id: "late", number: "PARCEL2", status: "delivered", at: "2026-12-07T15:00:00Z")
        #expect(delivered.outcome == .applied)
        let earlier = try await Self.generic(
            wallet, id: "early", number: "PARCEL2", status: "outForDelivery", at: "2026-12-07T08:00:00Z")
        #expect(earlier.outcome == .older)
        #expect(try await Self.fulfillment(wallet, identifier).status == "delivered")
        #expect(try await wallet.orders.history(identifier).count == 2)
        let recorded = try await wallet.trackingEvents()
        #expect(recorded.map(\.outcome) == [.older, .applied])
        try await wallet.close()
    }

    @Test("an event for a parcel no order names is kept, and applied once an order naming it is saved", arguments: backends)
    func unknownThenKnown(_ factory: BackendFactory) async throws {
        let clock = TestClock()
        let wallet = try await Self.wallet(factory, clock: clock)
        let early = try await Self.generic(wallet, id: "first-scan", number: "NEW-PARCEL-7", status: "onTheWay")
        #expect(early.outcome == .unmatched)
        #expect(try await wallet.trackingEvents(unmatched: true).map(\.eventID) == ["first-scan"])
        #expect(try await wallet.applyKeptTrackingEvents(webService: Self.webService).isEmpty)

        let identifier = try await Self.order(wallet, "T-3", number: "newparcel7", fulfillment: "processing")
        let swept = try await wallet.applyKeptTrackingEvents(webService: Self.webService)
        #expect(swept.map(\.outcome) == [.applied])
        #expect(try await Self.fulfillment(wallet, identifier).status == "onTheWay")
        #expect(try await wallet.trackingEvents(unmatched: true).isEmpty)
        // Applied once: the next sweep finds nothing to do.
        #expect(try await wallet.applyKeptTrackingEvents(webService: Self.webService).isEmpty)
        #expect(try await wallet.orders.history(identifier).count == 2)
        // Unmatched events are forgotten after 14 days, every event after 30.
        _ = try await Self.generic(wallet, id: "never-matched", number: "NOBODY-1", status: "onTheWay")
        #expect(try await wallet.expireTrackingEvents() == 0)
        clock.advance(days: 15)
        #expect(try await wallet.expireTrackingEvents() == 1)
        #expect(try await wallet.trackingEvents(unmatched: true).isEmpty)
        #expect(try await wallet.trackingEvents().map(\.eventID) == ["first-scan"])
        clock.advance(days: 16)
        #expect(try await wallet.expireTrackingEvents() == 1)
        #expect(try await wallet.trackingEvents().isEmpty)
        #expect(try await wallet.appliedTrackingEvents(of: identifier).count == 1, "a version's event stays with it")
        try await wallet.close()
    }

    @Test("one parcel named by two orders changes both; a cancelled order is left alone", arguments: backends)
    func sharedParcelAndClosedOrder(_ factory: BackendFactory) async throws {
        let clock = TestClock()
        let wallet = try await Self.wallet(factory, clock: clock)
        let first = try await Self.order(wallet, "T-4a", number: "SHARED1")
        let second = try await Self.order(wallet, "T-4b", number: "SHARED1")
        let closed = try await Self.order(wallet, "T-4c", number: "CLOSED1", status: "cancelled")
        let shared = try await Self.generic(wallet, id: "s-1", number: "SHARED1", status: "outForDelivery")
        #expect(shared.outcome == .applied)
        #expect(Set(shared.versions.map(\.identifier)) == [first, second])
        #expect(try await Self.fulfillment(wallet, first).status == "outForDelivery")
        #expect(try await Self.fulfillment(wallet, second).status == "outForDelivery")

        let cancelled = try await Self.generic(wallet, id: "c-1", number: "CLOSED1", status: "delivered")
        #expect(cancelled.outcome == .orderClosed)
        #expect(try await Self.fulfillment(wallet, closed).status == "onTheWay")
        #expect(try await wallet.orders.history(closed).count == 1)
        try await wallet.close()
    }

    @Test("the index follows the current version: a number replaced by a PATCH no longer matches", arguments: backends)
    func indexFollowsVersions(_ factory: BackendFactory) async throws {
        let clock = TestClock()
        let wallet = try await Self.wallet(factory, clock: clock)
        let identifier = try await Self.order(wallet, "T-5", number: "OLDNUMBER")
        _ = try await wallet.authorOrder(
            identifier,
            content: .mergePatch(
                Data(
                    #"{"fulfillments":[{"fulfillmentType":"shipping","fulfillmentIdentifier":"SHIP-1","status":"onTheWay","trackingNumber":"NEWNUMBER"}]}"#
                        .utf8)), webService: Self.webService)
        #expect(try await Self.generic(wallet, id: "o-1", number: "OLDNUMBER", status: "delivered").outcome == .unmatched)
        #expect(try await Self.generic(wallet, id: "n-1", number: "NEWNUMBER", status: "delivered").outcome == .applied)
        #expect(try await Self.fulfillment(wallet, identifier).status == "delivered")
        // Removing the order takes its entries with it.
        #expect(try await wallet.orders.removeOrder(identifier))
        #expect(try await wallet.backend.tracking.orders(trackingKey: "NEWNUMBER").isEmpty)
        try await wallet.close()
    }

    @Test(
        "a provider's body is applied only under one of the endpoint's secrets, recent, and for the endpoint's types",
        arguments: backends)
    func signedWebhooks(_ factory: BackendFactory) async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_796_625_600))
        let wallet = try await Self.wallet(factory, clock: clock)
        let identifier = try await Self.order(wallet, "T-6", number: "1Z999AA10123456784")
        let endpoint = try await wallet.addTrackingEndpoint(
            provider: .afterShip, orderTypeIdentifiers: [Self.type], secrets: ["new-secret-abcdef", Self.secret])
        #expect(endpoint.identifier.hasPrefix("trk_"))
        let scheme = try #require(TrackingSignature(provider: .afterShip))
        func body(_ id: String, tag: String, ts: Date) -> Data {
            Data(
                #"{"event_id":"\#(id)","event":"tracking_update","msg":{"tracking_number":"1Z999AA10123456784","slug":"ups","tag":"\#(tag)","checkpoints":[]},"ts":\#(Int(ts.timeIntervalSince1970))}"#
                    .utf8)
        }
        func post(
            _ data: Data, secret: String?, signing signed: Data? = nil, endpoint name: String = endpoint.identifier,
            provider: TrackingProvider = .afterShip
        ) async throws -> TrackingResult {
            try await wallet.receiveTrackingWebhook(
                data, provider: provider, endpoint: name,
                signature: secret.map { scheme.value(for: signed ?? data, secret: $0) }, webService: Self.webService)
        }
        let outForDelivery = body("e-1", tag: "OutForDelivery", ts: clock.now())
        await #expect(throws: TrackingError.unsigned(header: scheme.header)) { _ = try await post(outForDelivery, secret: nil) }
        await #expect(throws: TrackingError.badSignature(header: scheme.header)) {
            _ = try await post(outForDelivery, secret: "another-secret")
        }
        var tampered = outForDelivery
        tampered[tampered.count - 3] = UInt8(ascii: "1")
        await #expect(throws: TrackingError.badSignature(header: scheme.header)) {
            _ = try await post(tampered, secret: Self.secret, signing: outForDelivery)
        }
        await #expect(throws: TrackingError.unknownEndpoint(endpoint.identifier)) {
            _ = try await post(outForDelivery, secret: Self.secret, provider: .easyPost)
        }
        await #expect(throws: TrackingError.unknownEndpoint("trk_nope")) {
            _ = try await post(outForDelivery, secret: Self.secret, endpoint: "trk_nope")
        }
        await #expect(throws: TrackingError.unsigned(header: scheme.header), "unsigned: refused before the lookup") {
            _ = try await post(outForDelivery, secret: nil, endpoint: "trk_nope")
        }
        let stale = body("e-0", tag: "InTransit", ts: clock.now().addingTimeInterval(-301))
        await #expect(throws: TrackingError.self) { _ = try await post(stale, secret: Self.secret) }
        #expect(try await wallet.trackingEvents().isEmpty, "a refused body is not recorded")
        #expect(try await wallet.orders.history(identifier).count == 1)

        // The retiring secret still signs during rotation, and so does the new one.
        #expect(try await post(outForDelivery, secret: Self.secret).outcome == .applied)
        #expect(try await Self.fulfillment(wallet, identifier).status == "outForDelivery")
        clock.advance(seconds: 60)
        #expect(try await post(body("e-2", tag: "Delivered", ts: clock.now()), secret: "new-secret-abcdef").outcome == .applied)
        #expect(try await Self.fulfillment(wallet, identifier).status == "delivered")
        #expect(try await wallet.setTrackingSecrets(["new-secret-abcdef"], endpoint: endpoint.identifier))
        await #expect(throws: TrackingError.badSignature(header: scheme.header)) {
            _ = try await post(body("e-3", tag: "Exception", ts: clock.now()), secret: Self.secret)
        }
        #expect(try await wallet.appliedTrackingEvents(of: identifier).map(\.eventID) == ["e-1", "e-2"])
        try await wallet.close()
    }

    @Test("an endpoint changes only its order types; the generic event only the client's", arguments: backends)
    func scopes(_ factory: BackendFactory) async throws {
        let clock = TestClock()
        let wallet = try await Self.wallet(factory, clock: clock)
        let identifier = try await Self.order(wallet, "T-7", number: "SCOPED1")
        let other: ClientIdentifier = "com.example.other"
        try await wallet.entitle(other, toOrderTypes: ["order.com.example.elsewhere"])
        let body = Data(
            #"{"eventID":"x-1","trackingNumber":"SCOPED1","status":"delivered","occurredAt":"2026-12-07T06:40:00Z"}"#.utf8)
        let foreign = try await wallet.merchantOrders(for: other).receiveTrackingEvent(body, webService: Self.webService)
        #expect(foreign.outcome == .unmatched)
        #expect(try await Self.fulfillment(wallet, identifier).status == "onTheWay")
        await #expect(throws: TrackingError.self) {
            _ = try await wallet.addTrackingEndpoint(provider: .generic, orderTypeIdentifiers: [Self.type], secrets: ["s"])
        }
        await #expect(throws: TrackingError.self) {
            _ = try await wallet.addTrackingEndpoint(provider: .easyPost, orderTypeIdentifiers: [], secrets: ["s"])
        }
        await #expect(throws: TrackingError.self) {
            _ = try await wallet.addTrackingEndpoint(
                provider: .easyPost, orderTypeIdentifiers: [Self.type], secrets: ["a", "b", "c"])
        }
        try await wallet.close()
    }

    @Test(
        "an event left half done (its service stopped after recording it) is finished by its redelivery, or by the sweep a minute on",
        arguments: backends)
    func leftHalfDone(_ factory: BackendFactory) async throws {
        let clock = TestClock()
        let wallet = try await Self.wallet(factory, clock: clock)
        let first = try await Self.order(wallet, "T-8a", number: "HALF1")
        let second = try await Self.order(wallet, "T-8b", number: "HALF2")
        func stopped(_ id: String, _ number: String) async throws {
            let event = TrackingEvent(
                provider: .generic, eventID: id, carrier: nil, trackingNumber: number, status: .delivered,
                providerStatus: "delivered", occurredAt: clock.now(), deliveredAt: clock.now())
            let record = TrackingEventRecord(
                endpoint: TrackingEndpoint.generic(client: Self.client.rawValue), eventID: id, provider: "generic",
                trackingKey: event.key.normalized, orderTypeIdentifier: nil, occurredAt: event.occurredAt,
                receivedAt: clock.now(), event: try JSONEncoder().encode(event), outcome: .received)
            #expect(try await wallet.backend.tracking.record(record, keep: 10) == nil)
        }
        try await stopped("h-1", "HALF1")
        try await stopped("h-2", "HALF2")
        // The provider retries the first: applied now, not a duplicate.
        let retried = try await Self.generic(wallet, id: "h-1", number: "HALF1", status: "delivered")
        #expect(retried.outcome == .applied)
        #expect(try await Self.fulfillment(wallet, first).status == "delivered")
        // Nobody retries the second: the sweep applies it once it has been left a minute.
        #expect(try await wallet.applyKeptTrackingEvents(webService: Self.webService).isEmpty)
        clock.advance(seconds: 61)
        #expect(try await wallet.applyKeptTrackingEvents(webService: Self.webService).map(\.outcome) == [.applied])
        #expect(try await Self.fulfillment(wallet, second).status == "delivered")
        #expect(try await wallet.applyKeptTrackingEvents(webService: Self.webService).isEmpty)
        #expect(try await wallet.orders.history(second).count == 2)
        // Left half done after its version was saved (the service stopped before recording the
        // outcome): the redelivery finds the order already saying it, and makes no second version.
        try await wallet.backend.tracking.finish(
            endpoint: TrackingEndpoint.generic(client: Self.client.rawValue), eventID: "h-1", outcome: .received, versions: 0,
            checkedThrough: 0)
        let again = try await Self.generic(wallet, id: "h-1", number: "HALF1", status: "delivered")
        #expect(again.outcome == .unchanged && again.versions.isEmpty)
        #expect(try await wallet.orders.history(first).count == 2)
        try await wallet.close()
    }

    @Test(
        "every status word of both providers' tables, signed and posted, becomes the table's fulfillment status in a stored version",
        arguments: backends)
    func everyMappedStatus(_ factory: BackendFactory) async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_796_625_600))
        let wallet = try await Self.wallet(factory, clock: clock)
        let afterShip = try await wallet.addTrackingEndpoint(
            provider: .afterShip, orderTypeIdentifiers: [Self.type], secrets: [Self.secret])
        let easyPost = try await wallet.addTrackingEndpoint(
            provider: .easyPost, orderTypeIdentifiers: [Self.type], secrets: [Self.secret])
        let rows =
            StatusMapping.afterShip.map { (TrackingProvider.afterShip, afterShip.identifier, $0) }
            + StatusMapping.easyPost.map { (TrackingProvider.easyPost, easyPost.identifier, $0) }
        for (index, (provider, endpoint, row)) in rows.enumerated() {
            let number = "MAP\(index)X"
            let identifier = try await Self.order(wallet, "M-\(index)", number: number, fulfillment: "processing")
            let body =
                provider == .afterShip
                ? #"{"event_id":"a-\#(index)","event":"tracking_update","msg":{"tracking_number":"\#(number)","slug":"ups","tag":"\#(row.providerStatus)","checkpoints":[]},"ts":\#(Int(clock.now().timeIntervalSince1970))}"#
                : #"{"object":"Event","id":"evt_\#(index)","description":"tracker.updated","created_at":"2026-12-07T06:40:00Z","result":{"object":"Tracker","tracking_code":"\#(number)","status":"\#(row.providerStatus)","carrier":"UPS","tracking_details":[]}}"#
            let data = Data(body.utf8)
            let scheme = try #require(TrackingSignature(provider: provider))
            let result = try await wallet.receiveTrackingWebhook(
                data, provider: provider, endpoint: endpoint, signature: scheme.value(for: data, secret: Self.secret),
                webService: Self.webService)
            let now = try await Self.fulfillment(wallet, identifier)
            #expect(now.status == (row.status?.rawValue ?? "processing"), "\(provider) \(row.providerStatus)")
            #expect(result.outcome == (row.status == nil ? .unchanged : .applied), "\(provider) \(row.providerStatus)")
            if row.status != nil { #expect(now.description == row.description, "\(provider) \(row.providerStatus)") }
        }
        try await wallet.close()
    }
}
