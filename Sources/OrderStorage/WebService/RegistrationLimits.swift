/// How many registrations the Orders web service keeps, since whoever holds an order's
/// authentication token (every customer with the order) can register devices for it: without a
/// bound, one order could carry millions of registrations and every update as many pushes.
///
/// A new registration past either bound is refused (``RegistrationLimitError``); replacing the
/// push token of an existing one always succeeds. docs/serve.md gives the reasons for the
/// defaults.
public struct RegistrationLimits: Sendable, Hashable {
    /// The most devices registered for one order. A customer's iPhone, Apple Watch and iPad, and
    /// the people they share the order with, come to a handful.
    public var devicesPerOrder: Int
    /// The most orders one device is registered for, across order types.
    public var ordersPerDevice: Int

    public init(devicesPerOrder: Int = 100, ordersPerDevice: Int = 1000) {
        self.devicesPerOrder = devicesPerOrder
        self.ordersPerDevice = ordersPerDevice
    }

    public static let `default` = RegistrationLimits()
}

/// Which bound of ``RegistrationLimits`` a new registration would pass.
public enum RegistrationLimitError: Error, Sendable, Hashable {
    case devicesPerOrder(limit: Int)
    case ordersPerDevice(limit: Int)
}
