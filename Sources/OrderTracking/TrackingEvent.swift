import Foundation
import OrderPackage

/// One shipment event in the service's terms, whatever the provider: which parcel, what its
/// status now is in Wallet's words, and when that happened.
public struct TrackingEvent: Sendable, Hashable, Codable {
    /// Where it came from.
    public var provider: TrackingProvider
    /// The provider's identifier of the event (AfterShip's `event_id`, EasyPost's `evt_…`): a
    /// second delivery of the same event changes nothing.
    public var eventID: String
    /// The carrier as the provider names it (AfterShip's slug `ups`, EasyPost's `UPS`), nil when
    /// the provider does not say. Matched against an order's `carrier` ignoring case and
    /// punctuation (``TrackingKey``).
    public var carrier: String?
    /// The parcel's tracking number, as the carrier prints it.
    public var trackingNumber: String
    /// Restricts matching to one order type (the generic event may name it).
    public var orderTypeIdentifier: String?
    /// The shipping fulfillment's status the event means, or nil when it means none (AfterShip's
    /// `Pending`, EasyPost's `unknown`): its other facts (an estimate) may still apply.
    public var status: Order.ShippingFulfillment.Status?
    /// The provider's own word for the status (`OutForDelivery_001`, `out_for_delivery`), kept
    /// with the event for support.
    public var providerStatus: String
    /// What the customer reads under the status, from the provider's latest checkpoint or its
    /// status detail.
    public var statusDescription: String?
    /// When the event happened, by the provider's clock: events are applied in this order.
    public var occurredAt: Date
    /// The carrier's delivery estimate, when the event gives one.
    public var estimatedDeliveryAt: Date?
    /// When the parcel was delivered, for a `delivered` event.
    public var deliveredAt: Date?

    public init(
        provider: TrackingProvider, eventID: String, carrier: String?, trackingNumber: String,
        orderTypeIdentifier: String? = nil, status: Order.ShippingFulfillment.Status?, providerStatus: String,
        statusDescription: String? = nil, occurredAt: Date, estimatedDeliveryAt: Date? = nil, deliveredAt: Date? = nil
    ) {
        self.provider = provider
        self.eventID = eventID
        self.carrier = carrier
        self.trackingNumber = trackingNumber
        self.orderTypeIdentifier = orderTypeIdentifier
        self.status = status
        self.providerStatus = providerStatus
        self.statusDescription = statusDescription
        self.occurredAt = occurredAt
        self.estimatedDeliveryAt = estimatedDeliveryAt
        self.deliveredAt = deliveredAt
    }

    /// The key orders are matched on.
    public var key: TrackingKey { TrackingKey(trackingNumber: trackingNumber) }
}
