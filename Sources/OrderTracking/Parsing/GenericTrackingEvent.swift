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
    /// The longest tracking number the generic event takes (carriers' are 10 to 40 characters).
    static let maximumTrackingNumberLength = 64
    /// What a generic event's tracking number is written with (the OpenAPI document's pattern):
    /// ASCII letters and digits, at least one, and spaces, dots, slashes and hyphens.
    static let letterOrDigit = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars)
    static let trackingNumberCharacters = letterOrDigit.union(" ./-".unicodeScalars)

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
        let number = try document.string("trackingNumber")
        guard number.unicodeScalars.count <= maximumTrackingNumberLength,
            number.unicodeScalars.allSatisfy(trackingNumberCharacters.contains),
            number.unicodeScalars.contains(where: letterOrDigit.contains)
        else {
            throw .invalidBody(
                path: "trackingNumber",
                reason:
                    "expected 1 to \(maximumTrackingNumberLength) ASCII letters, digits, spaces, dots, slashes and hyphens, with a letter or digit"
            )
        }
        var event = TrackingEvent(
            provider: .generic, eventID: try document.string("eventID"), carrier: try document.optionalString("carrier"),
            trackingNumber: number,
            orderTypeIdentifier: try document.optionalString("orderTypeIdentifier"), status: status,
            providerStatus: status?.rawValue ?? "", statusDescription: try document.optionalString("statusDescription"),
            occurredAt: try document.timestamp("occurredAt"),
            estimatedDeliveryAt: try document.optionalEstimate("estimatedDeliveryAt"),
            deliveredAt: try document.optionalTimestamp("deliveredAt"))
        if status == .delivered, event.deliveredAt == nil { event.deliveredAt = event.occurredAt }
        return event
    }
}
