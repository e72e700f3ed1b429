import WalletPrimitives

/// Why the Orders web service refused a device's request.
public enum WebServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `AppleOrder` token is missing or wrong, or the order is not stored (or has no web
    /// service). One case for all three, so that an answer never reveals whether an order exists.
    case unauthorized

    public var description: String {
        switch self {
        case .unauthorized: "the request needs the order's authentication token (Authorization: AppleOrder <token>)"
        }
    }
}

extension WebServiceError: WalletError {
    public var code: String { "webService.unauthorized" }
    public var message: String { description }
    public var category: ErrorCategory { .unauthorized }
}
