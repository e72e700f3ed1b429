import Foundation

/// The devices registered for one order's updates, as operators see them: never a push token in
/// full (it addresses the device), only its last characters.
public struct RegisteredDevices: Sendable, Hashable {
    public struct Device: Sendable, Hashable {
        public var deviceIdentifier: String
        /// The push token's last ``PushOutboxRecords/tokenSuffixLength`` characters.
        public var pushTokenSuffix: String
        public var registeredAt: Date
        /// When the device last registered again (a new push token, or the same).
        public var updatedAt: Date

        public init(deviceIdentifier: String, pushTokenSuffix: String, registeredAt: Date, updatedAt: Date) {
            self.deviceIdentifier = deviceIdentifier
            self.pushTokenSuffix = pushTokenSuffix
            self.registeredAt = registeredAt
            self.updatedAt = updatedAt
        }
    }

    /// Every registration of the order, however many ``devices`` lists.
    public var count: Int
    /// The most recent registration's time; nil without any.
    public var lastRegisteredAt: Date?
    /// The most recently registered devices first.
    public var devices: [Device]

    public init(count: Int, lastRegisteredAt: Date?, devices: [Device]) {
        self.count = count
        self.lastRegisteredAt = lastRegisteredAt
        self.devices = devices
    }
}
