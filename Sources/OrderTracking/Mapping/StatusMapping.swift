import OrderPackage

/// A provider's status word and the shipping fulfillment status it becomes: one row of the table
/// in docs/tracking.md ("Statuses"), which a test compares with these.
public struct StatusMapping: Sendable, Hashable {
    /// The provider's word (AfterShip's tag, EasyPost's tracker status).
    public let providerStatus: String
    /// Wallet's status, or nil for a word that changes no status.
    public let status: Order.ShippingFulfillment.Status?
    /// What the customer reads when the provider gives no description of its own.
    public let description: String?

    init(_ providerStatus: String, _ status: Order.ShippingFulfillment.Status?, _ description: String?) {
        self.providerStatus = providerStatus
        self.status = status
        self.description = description
    }

    /// AfterShip's delivery statuses (`tag`;
    /// https://www.aftership.com/docs/tracking/enum/delivery-statuses), in its order.
    public static let afterShip: [StatusMapping] = [
        StatusMapping("Pending", nil, nil),
        StatusMapping("InfoReceived", .shipped, "The carrier has the shipment's details."),
        StatusMapping("InTransit", .onTheWay, "On the way."),
        StatusMapping("OutForDelivery", .outForDelivery, "Out for delivery."),
        StatusMapping("AttemptFail", .issue, "The carrier tried to deliver the parcel and could not."),
        StatusMapping("Delivered", .delivered, "Delivered."),
        StatusMapping("AvailableForPickup", .outForDelivery, "Ready to collect at the carrier's pickup point."),
        StatusMapping("Exception", .issue, "The carrier reports a problem with the delivery."),
        StatusMapping("Expired", nil, nil),
    ]

    /// EasyPost's tracker statuses (https://docs.easypost.com/docs/trackers, "Tracking Statuses").
    public static let easyPost: [StatusMapping] = [
        StatusMapping("unknown", nil, nil),
        StatusMapping("pre_transit", .shipped, "The carrier has the shipment's details."),
        StatusMapping("in_transit", .onTheWay, "On the way."),
        StatusMapping("out_for_delivery", .outForDelivery, "Out for delivery."),
        StatusMapping("delivered", .delivered, "Delivered."),
        StatusMapping("available_for_pickup", .outForDelivery, "Ready to collect at the carrier's pickup point."),
        StatusMapping("return_to_sender", .issue, "The parcel is being returned to the sender."),
        StatusMapping("failure", .issue, "The carrier reports a problem with the delivery."),
        StatusMapping("cancelled", .cancelled, "The shipment was cancelled."),
        StatusMapping("error", nil, nil),
    ]

    /// The row for `word` in `table`, matched exactly (providers' words are case-sensitive
    /// enumerations); nil for a word the table does not have.
    static func row(_ word: String, in table: [StatusMapping]) -> StatusMapping? {
        table.first { $0.providerStatus == word }
    }
}
