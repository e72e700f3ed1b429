import Foundation
import OrderPackage

/// EasyPost's Event as its webhooks POST it (https://docs.easypost.com/docs/events): `id`
/// (`evt_…`), `description` (`tracker.updated`, `tracker.created`), `created_at`, and `result`,
/// the Tracker (https://docs.easypost.com/docs/trackers) — `tracking_code`, `carrier`, `status`,
/// `status_detail`, `est_delivery_date`, `tracking_details`.
enum EasyPostEvent {
    static func event(from body: Data) throws(TrackingError) -> TrackingEvent {
        let document = try EventFields.document(body)
        let kind = try document.string("description")
        guard kind == "tracker.updated" || kind == "tracker.created" else { throw .unsupportedEvent(kind) }
        let occurredAt = try document.timestamp("created_at")
        let tracker = try document.object("result")
        let status = try tracker.string("status")
        let row = StatusMapping.row(status, in: StatusMapping.easyPost)
        let details = try tracker.objects("tracking_details")
        let detail = try tracker.optionalString("status_detail")
        let message = try details.last?.optionalString("message")
        var event = TrackingEvent(
            provider: .easyPost, eventID: try document.string("id"), carrier: try tracker.optionalString("carrier"),
            trackingNumber: try tracker.string("tracking_code"), status: row?.status,
            providerStatus: detail.map { "\(status)/\($0)" } ?? status,
            statusDescription: message ?? row?.description, occurredAt: occurredAt,
            estimatedDeliveryAt: try tracker.optionalEstimate("est_delivery_date"))
        if event.status == .delivered {
            var deliveredAt: Date?
            for detail in details.reversed() where try detail.optionalString("status") == "delivered" {
                deliveredAt = try detail.optionalTimestamp("datetime")
                break
            }
            event.deliveredAt = deliveredAt ?? occurredAt
        }
        return event
    }
}
