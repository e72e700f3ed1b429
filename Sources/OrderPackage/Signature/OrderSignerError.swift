import WalletPrimitives

/// A signing identity could not be loaded or used.
public enum OrderSignerError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidCertificate(reason: String)
    case invalidPrivateKey(reason: String)
    case keyDoesNotMatchCertificate
    case signingFailed(reason: String)

    public var description: String {
        switch self {
        case .invalidCertificate(let reason): "the signing certificate cannot be read: \(reason)"
        case .invalidPrivateKey(let reason): "the private key cannot be read: \(reason)"
        case .keyDoesNotMatchCertificate: "the private key does not belong to the signing certificate"
        case .signingFailed(let reason): "signing failed: \(reason)"
        }
    }
}

extension OrderSignerError: WalletError {
    public var code: String {
        switch self {
        case .invalidCertificate: "signer.invalidCertificate"
        case .invalidPrivateKey: "signer.invalidPrivateKey"
        case .keyDoesNotMatchCertificate: "signer.keyMismatch"
        case .signingFailed: "signer.failed"
        }
    }

    public var message: String { description }
    public var category: ErrorCategory { .invalidInput }
}
