import WalletPrimitives

/// Why an API key cannot be created or used.
public enum APIKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A key must be entitled to at least one non-empty order type.
    case noOrderTypes
    /// There is no key with this identifier.
    case unknownKey(String)
    /// A whole key was given whose secret is not the stored one (the identifier is named).
    case secretMismatch(String)

    public var description: String {
        switch self {
        case .noOrderTypes: "an API key needs at least one non-empty order type (--order-type)"
        case .unknownKey(let identifier): "there is no API key \(MessageText.quote(identifier))"
        case .secretMismatch(let identifier):
            "the key given has the identifier \(MessageText.quote(identifier)) but not its secret; nothing was revoked"
        }
    }
}

extension APIKeyError: WalletError {
    public var code: String {
        switch self {
        case .noOrderTypes: "apiKey.noOrderTypes"
        case .unknownKey: "apiKey.unknown"
        case .secretMismatch: "apiKey.secretMismatch"
        }
    }

    public var message: String { description }

    public var category: ErrorCategory {
        switch self {
        case .noOrderTypes: .invalidInput
        case .unknownKey, .secretMismatch: .notFound
        }
    }
}
