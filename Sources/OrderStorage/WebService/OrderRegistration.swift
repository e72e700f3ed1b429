/// A device's registration for updates of one order (Apple's Orders web service): the device
/// library identifier, the push token APNs delivers to, and the order.
public struct OrderRegistration: Sendable, Hashable {
    public var deviceIdentifier: String
    public var pushToken: String
    public var order: FullyQualifiedOrderIdentifier

    public init(deviceIdentifier: String, pushToken: String, order: FullyQualifiedOrderIdentifier) {
        self.deviceIdentifier = deviceIdentifier
        self.pushToken = pushToken
        self.order = order
    }
}

/// What registering did: Apple's `201 Created` and `200 OK`.
public enum RegistrationResult: String, Sendable, Hashable {
    /// The device was not registered for the order.
    case created
    /// It was; the push token is now the one given.
    case updated
}

/// The orders of one type a device is registered for that changed after a tag, and the tag to
/// ask with next time (Apple's `orderIdentifiers` and `lastModified`).
public struct RegisteredOrderChanges: Sendable, Hashable {
    public var orderIdentifiers: [String]
    public var lastModified: OrderChangeTag

    public init(orderIdentifiers: [String], lastModified: OrderChangeTag) {
        self.orderIdentifiers = orderIdentifiers
        self.lastModified = lastModified
    }
}
