import Foundation
import OrderPackage
import WalletPrimitives

/// What an event does to one order: the rules of docs/tracking.md ("Applying an event"), pure —
/// the order's `order.json` in, a merge patch out, which the authoring unit of work signs, saves
/// and pushes.
///
/// - An order that is `cancelled` or `completed` is left alone.
/// - The event applies to each shipping fulfillment whose `trackingNumber` has the event's key
///   (``TrackingKey``); a fulfillment that is `cancelled` is left alone.
/// - An event that occurred before the last one applied to the order's parcel changes nothing
///   (events arrive out of order).
/// - Nothing moves a fulfillment back from `delivered` but an `issue` the provider reports later.
/// - What the event does not give (a status, a description, an estimate) is left as it is.
public enum TrackingUpdate {
    public enum Outcome: Sendable, Hashable {
        /// The patch (`{"fulfillments": […]}`) to author, and the fulfillments it changes.
        case apply(patch: JSONValue, fulfillments: [String])
        /// The fulfillments already say what the event says.
        case unchanged
        /// The event occurred before the last one applied to this parcel.
        case older
        /// The order is cancelled or completed.
        case orderClosed
        /// No shipping fulfillment of the order names the parcel (it was removed since).
        case notNamed
    }

    /// The outcome of `event` on the order `orderJSON` (its parsed `order.json`), given when the
    /// last event applied to this order's parcel occurred.
    public static func outcome(of event: TrackingEvent, on orderJSON: JSONObject, lastAppliedAt: Date?) -> Outcome {
        if case .string(let word) = orderJSON["status"], let status = Order.Status(rawValue: word), status != .open {
            return .orderClosed
        }
        if let lastAppliedAt, event.occurredAt < lastAppliedAt { return .older }
        guard case .array(let fulfillments) = orderJSON["fulfillments"] else { return .notNamed }
        var updated = fulfillments
        var named = false
        var changed: [String] = []
        for (index, element) in fulfillments.enumerated() {
            guard case .object(var fulfillment) = element, fulfillment["fulfillmentType"] == .string("shipping"),
                case .string(let number) = fulfillment["trackingNumber"], TrackingKey(trackingNumber: number) == event.key
            else { continue }
            named = true
            let before = fulfillment
            apply(event, to: &fulfillment)
            if fulfillment != before {
                updated[index] = .object(fulfillment)
                if case .string(let identifier) = fulfillment["fulfillmentIdentifier"] { changed.append(identifier) }
            }
        }
        guard named else { return .notNamed }
        guard !changed.isEmpty else { return .unchanged }
        return .apply(
            patch: .object(JSONObject([JSONObject.Member(key: "fulfillments", value: .array(updated))])), fulfillments: changed)
    }

    private static func apply(_ event: TrackingEvent, to fulfillment: inout JSONObject) {
        guard case .string(let word) = fulfillment["status"], let current = Order.ShippingFulfillment.Status(rawValue: word),
            current != .cancelled
        else { return }
        if current == .delivered, event.status != .issue { return }
        if let status = event.status {
            fulfillment["status"] = .string(status.rawValue)
            if status == .delivered, let deliveredAt = event.deliveredAt {
                fulfillment["deliveredAt"] = .string(RFC3339Timestamp(deliveredAt).text)
            }
        }
        if let description = event.statusDescription {
            fulfillment["statusDescription"] = .string(description)
        }
        if let estimate = event.estimatedDeliveryAt, event.status != .delivered {
            fulfillment["estimatedDeliveryAt"] = .string(RFC3339Timestamp(estimate).text)
        }
    }
}
