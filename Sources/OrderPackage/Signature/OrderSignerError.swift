import WalletPrimitives

/// A signing identity could not be loaded or used.
public enum OrderSignerError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidCertificate(reason: String)
    case invalidPrivateKey(reason: String)
    case keyDoesNotMatchCertificate
    case signingFailed(reason: String)
    /// A passphrase or PIN could not be read from where ``SigningKeyLocation`` says it is.
    case secretUnavailable(source: String, reason: String)
    /// A PKCS#11 URI carries its PIN (`pin-value`) or says where to read it (`pin-source`): a
    /// store would then hold a secret, or the PIN would come from elsewhere than its source.
    case secretInKeyLocation(attribute: String)

    public var description: String {
        switch self {
        case .invalidCertificate(let reason): "the signing certificate cannot be read: \(reason)"
        case .invalidPrivateKey(let reason): "the private key cannot be read: \(reason)"
        case .keyDoesNotMatchCertificate: "the private key does not belong to the signing certificate"
        case .signingFailed(let reason): "signing failed: \(reason)"
        case .secretUnavailable(let source, let reason): "the secret in \(source) cannot be read: \(reason)"
        case .secretInKeyLocation(let attribute):
            "the PKCS#11 URI names its PIN (\(attribute)); name a file or an environment variable for the PIN instead (--passphrase-file, --passphrase-env)"
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
        case .secretUnavailable: "signer.secretUnavailable"
        case .secretInKeyLocation: "signer.secretInKeyLocation"
        }
    }

    public var message: String { description }
    public var category: ErrorCategory { .invalidInput }
}
