import Foundation
import OrderPackage
import Testing
import WalletPrimitives

@testable import OrderTracking

/// What an event does to an order (docs/tracking.md, "Applying an event").
@Suite("Tracking events applied to an order's fulfillments")
struct TrackingUpdateTests {
    static let number = "1Z999AA10123456784"

    /// An order.json's object with `fulfillments` (id, status, tracking number) and `status`.
    static func order(_ fulfillments: [(String, String, String?)], status: String = "open") throws -> JSONObject {
        let entries = fulfillments.map { id, status, number in
            #"{"fulfillmentType":"shipping","fulfillmentIdentifier":"\#(id)","status":"\#(status)""#
                + (number.map { #","trackingNumber":"\#($0)""# } ?? "") + "}"
        }
        let text = #"{"status":"\#(status)","orderIdentifier":"SHOP-1042","fulfillments":[\#(entries.joined(separator: ","))]}"#
        guard case .object(let object) = try JSONParser().parse(Data(text.utf8)).value else { throw CancellationError() }
        return object
    }

    static func event(
        _ status: Order.ShippingFulfillment.Status?, at time: TimeInterval = 1_796_625_600, number: String = number,
        description: String? = nil, estimate: Date? = nil
    ) -> TrackingEvent {
        TrackingEvent(
            provider: .afterShip, eventID: "e-\(time)", carrier: "ups", trackingNumber: number, status: status,
            providerStatus: status?.rawValue ?? "", statusDescription: description,
            occurredAt: Date(timeIntervalSince1970: time), estimatedDeliveryAt: estimate,
            deliveredAt: status == .delivered ? Date(timeIntervalSince1970: time) : nil)
    }

    /// The fulfillments of an applied patch, by identifier.
    static func fulfillments(_ outcome: TrackingUpdate.Outcome) throws -> [String: JSONObject] {
        guard case .apply(let patch, _) = outcome, case .object(let object) = patch,
            case .array(let entries) = object["fulfillments"]
        else { throw CancellationError() }
        var result: [String: JSONObject] = [:]
        for case .object(let entry) in entries {
            if case .string(let id) = entry["fulfillmentIdentifier"] { result[id] = entry }
        }
        return result
    }

    @Test("a status, its description, the estimate and deliveredAt are written; nothing else changes")
    func applied() throws {
        let order = try Self.order([("parcel-1", "onTheWay", "1z 999 aa1-0123456784"), ("other", "onTheWay", "XYZ")])
        let estimate = try #require(RFC3339Timestamp("2026-12-07T12:00:00Z")).date
        let outcome = TrackingUpdate.outcome(
            of: Self.event(.outForDelivery, description: "With the courier", estimate: estimate), on: order, lastAppliedAt: nil)
        guard case .apply(.object(let patch), let changed) = outcome else { throw CancellationError() }
        #expect(changed == ["parcel-1"])
        // A tracking event changes fulfillments only: never webServiceURL, the token or the rest.
        #expect(patch.keys == ["fulfillments"])
        let after = try Self.fulfillments(outcome)
        #expect(after["parcel-1"]?["status"] == .string("outForDelivery"))
        #expect(after["parcel-1"]?["statusDescription"] == .string("With the courier"))
        #expect(after["parcel-1"]?["estimatedDeliveryAt"] == .string("2026-12-07T12:00:00Z"))
        #expect(after["other"]?["status"] == .string("onTheWay"))
        #expect(after["other"]?["statusDescription"] == nil)

        let delivered = TrackingUpdate.outcome(of: Self.event(.delivered, at: 1_796_645_520), on: order, lastAppliedAt: nil)
        #expect(try Self.fulfillments(delivered)["parcel-1"]?["deliveredAt"] == .string("2026-12-07T12:12:00Z"))
    }

    @Test("an event older than the last one applied changes nothing; the same instant still applies")
    func outOfOrder() throws {
        let order = try Self.order([("parcel-1", "onTheWay", Self.number)])
        let applied = Date(timeIntervalSince1970: 1_796_625_600)
        #expect(
            TrackingUpdate.outcome(of: Self.event(.outForDelivery, at: 1_796_625_599), on: order, lastAppliedAt: applied)
                == .older)
        guard case .apply = TrackingUpdate.outcome(of: Self.event(.outForDelivery), on: order, lastAppliedAt: applied) else {
            Issue.record("an event at the instant of the last one was not applied")
            return
        }
    }

    @Test("nothing moves a fulfillment back from delivered but a later issue")
    func deliveredStays() throws {
        let order = try Self.order([("parcel-1", "delivered", Self.number)])
        for status in [Order.ShippingFulfillment.Status.onTheWay, .outForDelivery, .shipped, .delivered] {
            #expect(TrackingUpdate.outcome(of: Self.event(status), on: order, lastAppliedAt: nil) == .unchanged, "\(status)")
        }
        let estimate = Date(timeIntervalSince1970: 1_796_700_000)
        #expect(TrackingUpdate.outcome(of: Self.event(nil, estimate: estimate), on: order, lastAppliedAt: nil) == .unchanged)
        let issue = TrackingUpdate.outcome(of: Self.event(.issue, description: "Returned"), on: order, lastAppliedAt: nil)
        #expect(try Self.fulfillments(issue)["parcel-1"]?["status"] == .string("issue"))
    }

    @Test("cancelled and completed orders, and cancelled fulfillments, are left alone")
    func closed() throws {
        for status in ["cancelled", "completed"] {
            let order = try Self.order([("parcel-1", "onTheWay", Self.number)], status: status)
            #expect(TrackingUpdate.outcome(of: Self.event(.delivered), on: order, lastAppliedAt: nil) == .orderClosed)
        }
        let order = try Self.order([("parcel-1", "cancelled", Self.number)])
        #expect(TrackingUpdate.outcome(of: Self.event(.delivered), on: order, lastAppliedAt: nil) == .unchanged)
    }

    @Test("one parcel named by two fulfillments changes both; a number no fulfillment names is reported")
    func sharedParcel() throws {
        let order = try Self.order([("a", "onTheWay", Self.number), ("b", "shipped", Self.number), ("c", "open", nil)])
        let outcome = TrackingUpdate.outcome(of: Self.event(.outForDelivery), on: order, lastAppliedAt: nil)
        guard case .apply(_, let changed) = outcome else { throw CancellationError() }
        #expect(changed == ["a", "b"])
        #expect(TrackingUpdate.outcome(of: Self.event(.delivered, number: "OTHER"), on: order, lastAppliedAt: nil) == .notNamed)
    }

    @Test("an event saying what the fulfillment says is unchanged")
    func unchanged() throws {
        let order = try Self.order([("parcel-1", "onTheWay", Self.number)])
        #expect(TrackingUpdate.outcome(of: Self.event(.onTheWay), on: order, lastAppliedAt: nil) == .unchanged)
        #expect(TrackingUpdate.outcome(of: Self.event(nil), on: order, lastAppliedAt: nil) == .unchanged)
    }

    @Test("tracking numbers match without spaces, hyphens or case")
    func keys() {
        #expect(TrackingKey(trackingNumber: "1z 999-aa1") == TrackingKey(trackingNumber: "1Z999AA1"))
        #expect(TrackingKey(trackingNumber: "1Z999AA1") != TrackingKey(trackingNumber: "1Z999AA2"))
        #expect(TrackingKey(trackingNumber: " - ").isEmpty)
    }
}
