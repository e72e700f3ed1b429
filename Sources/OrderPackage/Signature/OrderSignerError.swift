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
