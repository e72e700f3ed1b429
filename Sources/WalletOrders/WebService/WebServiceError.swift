import OrderStorage
import WalletPrimitives

/// Why the Orders web service refused a device's request.
public enum WebServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `AppleOrder` token is missing or wrong, or the order is not stored (or has no web
    /// service). One case for all three, so that an answer never reveals whether an order exists.
    case unauthorized
    /// A device identifier that is not 1 to 128 bytes of letters, digits, `.`, `_` and `-`.
    case invalidDeviceIdentifier
    /// A push token that is not an APNs device token (an even number, 64 to 200, of hex digits).
    case invalidPushToken

    public var description: String {
        switch self {
        case .unauthorized: "the request needs the order's authentication token (Authorization: AppleOrder <token>)"
        case .invalidDeviceIdentifier:
            "a device identifier is 1 to \(OrderRegistration.maximumDeviceIdentifierLength) bytes of letters, digits, '.', '_' and '-'"
        case .invalidPushToken: "pushToken must be an APNs device token: an even number (64 to 200) of hexadecimal digits"
        }
    }
}

extension WebServiceError: WalletError {
    public var code: String {
        switch self {
        case .unauthorized: "webService.unauthorized"
        case .invalidDeviceIdentifier: "webService.invalidDeviceIdentifier"
        case .invalidPushToken: "webService.invalidPushToken"
        }
    }

    public var message: String { description }

    public var path: String? {
        switch self {
        case .unauthorized: nil
        case .invalidDeviceIdentifier: "deviceIdentifier"
        case .invalidPushToken: "pushToken"
        }
    }

    public var category: ErrorCategory {
        switch self {
        case .unauthorized: .unauthorized
        case .invalidDeviceIdentifier, .invalidPushToken: .invalidInput
        }
    }
}
