import Foundation

/// Where and how pushes go to APNs.
///
/// ```swift
/// let configuration = APNsConfiguration(
///     environment: .production,
///     authentication: .certificate(certificatePEM: certificate, privateKeyPEM: key))
/// ```
public struct APNsConfiguration: Sendable {
    public enum Environment: Sendable, Hashable {
        case production
        case sandbox
        /// Another server speaking APNs's protocol (tests).
        case custom(URL)

        var baseURL: String {
            switch self {
            case .production: "https://api.push.apple.com"
            case .sandbox: "https://api.sandbox.push.apple.com"
            case .custom(let url): url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
            }
        }
    }

    public enum Authentication: Sendable {
        /// TLS client authentication with the Order Type ID certificate and its key (PEM).
        case certificate(certificatePEM: Data, privateKeyPEM: Data)
        /// Token authentication: the `.p8` key, its key id and the team id.
        case token(p8: Data, keyIdentifier: String, teamIdentifier: String)
    }

    public var environment: Environment
    public var authentication: Authentication
    /// How long APNs keeps a push for a device that is offline (`apns-expiration`).
    public var expiration: Duration
    /// Extra roots to trust for the APNs server (tests); the system's otherwise.
    public var additionalTrustRootsPEM: [Data]
    public var requestTimeout: Duration

    public init(
        environment: Environment, authentication: Authentication, expiration: Duration = .seconds(24 * 3600),
        additionalTrustRootsPEM: [Data] = [], requestTimeout: Duration = .seconds(30)
    ) {
        self.environment = environment
        self.authentication = authentication
        self.expiration = expiration
        self.additionalTrustRootsPEM = additionalTrustRootsPEM
        self.requestTimeout = requestTimeout
    }
}
