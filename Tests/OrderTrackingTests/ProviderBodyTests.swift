import Foundation
import OrderPackage
import Testing
import WalletPrimitives

@testable import OrderTracking

/// Each provider's body read into an event: the fixtures field by field, every status word of
/// both tables, and refusals naming their JSON path.
@Suite("Tracking webhooks: the providers' bodies")
struct ProviderBodyTests {
    static func date(_ text: String) throws -> Date { try #require(RFC3339Timestamp(text)).date }

    static func read(_ provider: TrackingProvider, _ body: Data, now: Date? = nil) throws -> TrackingEvent {
        let signature = TrackingSignature(provider: provider)?.value(for: body, secret: TrackingFixtures.secret)
        let now = now ?? TrackingFixtures.ts(of: body) ?? Date(timeIntervalSince1970: 1_796_625_600)
        return try TrackingWebhook.event(provider, body: body, signature: signature, secrets: [TrackingFixtures.secret], now: now)
    }

    @Test("AfterShip's tracking_update and edd_revise")
    func afterShip() throws {
        let out = try Self.read(.afterShip, try TrackingFixtures.body("aftership-out-for-delivery.json"))
        #expect(out.provider == .afterShip)
        #expect(out.eventID == "3f645f5e-530b-4062-8695-db6a64420af8")
        #expect(out.carrier == "ups")
        #expect(out.trackingNumber == "1Z999AA10123456784")
        #expect(out.status == .outForDelivery)
        #expect(out.providerStatus == "OutForDelivery_001")
        #expect(out.statusDescription == "Out for delivery — with the courier since 07:40")
        #expect(out.occurredAt == (try Self.date("2026-12-07T06:40:00Z")))
        #expect(out.estimatedDeliveryAt == (try Self.date("2026-12-07T12:00:00Z")))
        #expect(out.deliveredAt == nil)

        let delivered = try Self.read(.afterShip, try TrackingFixtures.body("aftership-delivered.json"))
        #expect(delivered.status == .delivered)
        #expect(delivered.deliveredAt == (try Self.date("2026-12-07T13:12:00+01:00")))

        let revised = try Self.read(.afterShip, try TrackingFixtures.body("aftership-edd-revise.json"))
        #expect(revised.status == nil, "an EDD revision changes the estimate only")
        #expect(revised.estimatedDeliveryAt == (try Self.date("2026-12-08T12:00:00Z")))
    }

    @Test("EasyPost's tracker.updated")
    func easyPost() throws {
        let transit = try Self.read(.easyPost, try TrackingFixtures.body("easypost-in-transit.json"))
        #expect(transit.eventID == "evt_2b1a7c6e9d2f11ef9a0b")
        #expect(transit.carrier == "USPS")
        #expect(transit.trackingNumber == "9400 1000 0000 0000 0000 00")
        #expect(transit.key == TrackingKey(trackingNumber: "9400100000000000000000"))
        #expect(transit.status == .onTheWay)
        #expect(transit.providerStatus == "in_transit/arrived_at_facility")
        #expect(transit.statusDescription == "Arrived at USPS Regional Facility")
        #expect(transit.occurredAt == (try Self.date("2026-12-06T17:05:00Z")))
        #expect(transit.estimatedDeliveryAt == (try Self.date("2026-12-08T20:00:00Z")))

        let delivered = try Self.read(.easyPost, try TrackingFixtures.body("easypost-delivered.json"))
        #expect(delivered.status == .delivered)
        #expect(delivered.deliveredAt == (try Self.date("2026-12-08T15:22:00Z")))
        #expect(delivered.statusDescription == "Delivered, In/At Mailbox")
    }

    @Test("the generic event")
    func generic() throws {
        let event = try Self.read(.generic, try TrackingFixtures.body("generic-out-for-delivery.json"))
        #expect(event.eventID == "scan-8812")
        #expect(event.carrier == "DHL")
        #expect(event.status == .outForDelivery)
        #expect(event.statusDescription == "With the courier since 07:40")
        #expect(event.occurredAt == (try Self.date("2026-12-07T06:40:00Z")))
        let delivered = try Self.read(
            .generic,
            Data(#"{"eventID":"d1","trackingNumber":"JD01","status":"delivered","occurredAt":"2026-12-07T09:00:00Z"}"#.utf8))
        #expect(delivered.deliveredAt == (try Self.date("2026-12-07T09:00:00Z")))
    }

    @Test("every AfterShip tag becomes the status of docs/tracking.md's table", arguments: StatusMapping.afterShip)
    func afterShipTags(_ row: StatusMapping) throws {
        let event = try Self.read(.afterShip, TrackingFixtures.afterShip(tag: row.providerStatus))
        #expect(event.status == row.status)
        #expect(event.statusDescription == row.description)
    }

    @Test("every EasyPost tracker status becomes the status of docs/tracking.md's table", arguments: StatusMapping.easyPost)
    func easyPostStatuses(_ row: StatusMapping) throws {
        let event = try Self.read(.easyPost, TrackingFixtures.easyPost(status: row.providerStatus))
        #expect(event.status == row.status)
    }

    @Test("a status word the table does not have changes no status (providers add words)")
    func unknownWords() throws {
        #expect(try Self.read(.afterShip, TrackingFixtures.afterShip(tag: "Teleported")).status == nil)
        #expect(try Self.read(.easyPost, TrackingFixtures.easyPost(status: "teleported")).status == nil)
    }

    @Test(
        "refusals name the field",
        arguments: [
            (
                TrackingProvider.afterShip,
                #"{"event":"tracking_update","event_id":"e","ts":1796625600,"msg":{"tag":"InTransit"}}"#, "msg.tracking_number"
            ),
            (.afterShip, #"{"event":"tracking_update","event_id":"e","ts":"soon","msg":{}}"#, "ts"),
            (
                .afterShip,
                #"{"event":"tracking_update","event_id":"e","ts":1796625600,"msg":{"tracking_number":"1Z","tag":"InTransit","checkpoints":[1]}}"#,
                "msg.checkpoints[0]"
            ),
            (
                .afterShip,
                #"{"event":"tracking_update","event_id":"e","ts":1796625600,"msg":{"tracking_number":"1Z","tag":"InTransit","expected_delivery":"next week"}}"#,
                "msg.expected_delivery"
            ),
            (
                .afterShip,
                #"{"event":"tracking_update","event_id":"e","ts":1796625600,"msg":{"tracking_number":"--","tag":"InTransit"}}"#,
                "msg.tracking_number"
            ),
            (
                .easyPost,
                #"{"id":"evt","description":"tracker.updated","created_at":"2026-12-07T06:40:00Z","result":{"tracking_code":"9","status":7}}"#,
                "result.status"
            ),
            (.easyPost, #"{"id":"evt","description":"tracker.updated","created_at":"yesterday","result":{}}"#, "created_at"),
            (.generic, #"{"eventID":"e","trackingNumber":"1","status":"lost","occurredAt":"2026-12-07T06:40:00Z"}"#, "status"),
            (.generic, #"{"eventID":"e","trackingNumber":"1","occurredAt":"2026-12-07T06:40:00"}"#, "occurredAt"),
            (.generic, #"{"eventID":"e","trackingNumber":"1\u0000","occurredAt":"2026-12-07T06:40:00Z"}"#, "trackingNumber"),
            (.generic, #"{"eventID":"e","trackingNumber":"1","occurredAt":"2026-12-07T06:40:00Z","eventID":"f"}"#, ""),
            (.generic, #"[1]"#, ""),
        ])
    func refusals(_ provider: TrackingProvider, _ body: String, _ path: String) throws {
        do {
            _ = try Self.read(provider, Data(body.utf8))
            Issue.record("accepted \(body)")
        } catch let error as TrackingError {
            guard case .invalidBody(let reported, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reported == path, "\(error.message)")
        }
    }

    @Test("other events are acknowledged as unsupported; bodies over the limit and not JSON are refused")
    func otherBodies() throws {
        #expect(throws: TrackingError.unsupportedEvent("tracking_pending_time")) {
            try Self.read(.afterShip, TrackingFixtures.afterShip(tag: "Pending", event: "tracking_pending_time"))
        }
        #expect(throws: TrackingError.unsupportedEvent("batch.created")) {
            try Self.read(.easyPost, Data(#"{"id":"evt","description":"batch.created","result":{}}"#.utf8))
        }
        let large = Data(repeating: UInt8(ascii: " "), count: TrackingLimits.maximumBodySize + 1)
        #expect(throws: TrackingError.bodyTooLarge(size: large.count, limit: TrackingLimits.maximumBodySize)) {
            try Self.read(.generic, large)
        }
        #expect(throws: TrackingError.self) { try Self.read(.generic, Data("not json".utf8)) }
        let long = String(repeating: "7", count: TrackingLimits.maximumTextLength + 1)
        #expect(throws: TrackingError.self) {
            try Self.read(
                .generic, Data(#"{"eventID":"e","trackingNumber":"\#(long)","occurredAt":"2026-12-07T06:40:00Z"}"#.utf8))
        }
    }
}
