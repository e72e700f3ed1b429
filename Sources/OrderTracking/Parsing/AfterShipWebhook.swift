import Foundation
import OrderPackage

/// AfterShip's Tracking webhook body, as its Webhook Specifications describe it
/// (https://www.aftership.com/docs/tracking/webhook/webhook-specifications): `event`
/// (`tracking_update`, `edd_revise`), `event_id`, `ts` (seconds since 1970, when the event
/// occurred) and `msg`, the tracking — `tracking_number`, `slug`, `tag`, `subtag`,
/// `subtag_message`, `checkpoints`, the estimates and `shipment_delivery_date`.
enum AfterShipWebhook {
    static func event(from body: Data) throws(TrackingError) -> TrackingEvent {
        let document = try EventFields.document(body)
        let kind = try document.string("event")
        guard kind == "tracking_update" || kind == "edd_revise" else { throw .unsupportedEvent(kind) }
        let occurredAt = try document.unixTime("ts")
        let tracking = try document.object("msg")
        let tag = try tracking.string("tag")
        let subtag = try tracking.optionalString("subtag")
        let checkpoints = try tracking.objects("checkpoints")
        let checkpointMessage = try checkpoints.last?.optionalString("message")
        let subtagMessage = try tracking.optionalString("subtag_message")
        // An EDD revision changes the estimate only, whatever tag the tracking has meanwhile.
        let row = kind == "tracking_update" ? StatusMapping.row(tag, in: StatusMapping.afterShip) : nil
        var event = TrackingEvent(
            provider: .afterShip, eventID: try document.string("event_id"), carrier: try tracking.optionalString("slug"),
            trackingNumber: try tracking.string("tracking_number"), status: row?.status,
            providerStatus: subtag ?? tag,
            statusDescription: checkpointMessage ?? subtagMessage ?? row?.description,
            occurredAt: occurredAt, estimatedDeliveryAt: try estimate(tracking))
        if event.status == .delivered {
            let deliveredAt = try tracking.optionalTimestamp("shipment_delivery_date")
            event.deliveredAt = deliveredAt ?? occurredAt
        }
        return event
    }

    /// The carrier's estimate first, then AfterShip's own, then the legacy `expected_delivery`.
    private static func estimate(_ tracking: EventFields) throws(TrackingError) -> Date? {
        for key in ["courier_estimated_delivery_date", "aftership_estimated_delivery_date"] {
            if let estimate = try tracking.optionalObject(key),
                let date = try estimate.optionalEstimate("estimated_delivery_date")
            {
                return date
            }
        }
        return try tracking.optionalEstimate("expected_delivery")
    }
}
