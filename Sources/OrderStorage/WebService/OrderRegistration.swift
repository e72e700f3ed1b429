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

extension OrderRegistration {
    /// The longest device identifier accepted, in bytes.
    public static let maximumDeviceIdentifierLength = 128

    /// Whether `identifier` can be a device library identifier: 1 to 128 bytes of ASCII letters,
    /// digits, `.`, `_` and `-`. Wallet's are hexadecimal or UUIDs; anything longer or stranger
    /// only costs storage and ends up in log lines.
    public static func isValidDeviceIdentifier(_ identifier: String) -> Bool {
        let bytes = identifier.utf8
        return (1...maximumDeviceIdentifierLength).contains(bytes.count)
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    /// Whether `token` is an APNs device token as APNs accepts one in `/3/device/<token>`:
    /// hexadecimal digits, an even number of them from 64 to 200 (32 to 100 bytes; tokens are
    /// 32 bytes today, and Apple says not to rely on their length).
    public static func isValidPushToken(_ token: String) -> Bool {
        let bytes = token.utf8
        return (64...200).contains(bytes.count) && bytes.count % 2 == 0
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                    UInt8(ascii: "A")...UInt8(ascii: "F"):
                    true
                default: false
                }
            }
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
