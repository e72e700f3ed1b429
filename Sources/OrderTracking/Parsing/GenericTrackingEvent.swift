import Foundation
import OrderPackage
import WalletPrimitives

/// The service's own event, for every source without a provider format of its own
/// (docs/tracking.md, "The generic event"):
///
/// ```json
/// {"eventID": "scan-8812", "carrier": "DHL", "trackingNumber": "JD014600006281230704",
///  "status": "outForDelivery", "statusDescription": "With the courier since 07:40",
///  "occurredAt": "2026-12-07T07:40:00Z", "estimatedDeliveryAt": "2026-12-07T16:00:00Z"}
/// ```
///
/// `status` is a shipping fulfillment's status in Wallet's words; without it the event changes
/// only the estimate or the description. `orderTypeIdentifier` limits matching to one type.
enum GenericTrackingEvent {
    static func event(from body: Data) throws(TrackingError) -> TrackingEvent {
        let document = try EventFields.document(body)
        var status: Order.ShippingFulfillment.Status?
        if let word = try document.optionalString("status") {
            guard let known = Order.ShippingFulfillment.Status(rawValue: word) else {
                let words = Order.ShippingFulfillment.Status.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidBody(path: "status", reason: "expected one of \(words), found \(MessageText.quote(word))")
            }
            status = known
        }
        var event = TrackingEvent(
            provider: .generic, eventID: try document.string("eventID"), carrier: try document.optionalString("carrier"),
            trackingNumber: try document.string("trackingNumber"),
            orderTypeIdentifier: try document.optionalString("orderTypeIdentifier"), status: status,
            providerStatus: status?.rawValue ?? "", statusDescription: try document.optionalString("statusDescription"),
            occurredAt: try document.timestamp("occurredAt"),
            estimatedDeliveryAt: try document.optionalEstimate("estimatedDeliveryAt"),
            deliveredAt: try document.optionalTimestamp("deliveredAt"))
        if status == .delivered, event.deliveredAt == nil { event.deliveredAt = event.occurredAt }
        return event
    }
}
