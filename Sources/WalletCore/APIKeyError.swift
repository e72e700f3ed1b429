import WalletPrimitives

/// Why an API key cannot be created or used.
public enum APIKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A key must be entitled to at least one non-empty order type.
    case noOrderTypes
    /// There is no key with this identifier.
    case unknownKey(String)

    public var description: String {
        switch self {
        case .noOrderTypes: "an API key needs at least one non-empty order type (--order-type)"
        case .unknownKey(let identifier): "there is no API key \(MessageText.quote(identifier))"
        }
    }
}

extension APIKeyError: WalletError {
    public var code: String {
        switch self {
        case .noOrderTypes: "apiKey.noOrderTypes"
        case .unknownKey: "apiKey.unknown"
        }
    }

    public var message: String { description }

    public var category: ErrorCategory {
        switch self {
        case .noOrderTypes: .invalidInput
        case .unknownKey: .notFound
        }
    }
}
