import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import OrderStorage
import ServiceLifecycle
import WalletPrimitives

/// Sends Apple's order-update push over HTTP/2: `POST /3/device/<token>` with
/// `apns-topic` = the order type identifier, `apns-push-type: background`, `apns-priority: 5`,
/// an `apns-expiration` hours ahead (so APNs keeps it for an offline device) and the empty
/// payload `{}` (ORDER-FORMAT.md §7.4).
public final class APNsClient: PushSender {
    private let http: HTTPClient
    private let configuration: APNsConfiguration
    private let providerToken: APNsProviderToken?
    private let clock: @Sendable () -> Date
    private let logger: Logger

    public init(
        configuration: APNsConfiguration, clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger
    ) throws {
        let (tls, providerToken) = try Self.credentials(configuration, clock: clock)
        var httpConfiguration = HTTPClient.Configuration(tlsConfiguration: tls)
        httpConfiguration.httpVersion = .automatic
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
        self.providerToken = providerToken
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
    }

    /// Reads the configuration's credentials as a client would, without making one — and, for
    /// token authentication, signs a provider token with the `.p8` key: throws what
    /// ``init(configuration:clock:logger:)`` or the first push would.
    public static func check(_ configuration: APNsConfiguration) throws {
        let (_, providerToken) = try credentials(configuration, clock: { Date() })
        _ = try providerToken?.current()
    }

    private static func credentials(
        _ configuration: APNsConfiguration, clock: @escaping @Sendable () -> Date
    ) throws -> (TLSConfiguration, APNsProviderToken?) {
        var tls = TLSConfiguration.makeClientConfiguration()
        var providerToken: APNsProviderToken?
        switch configuration.authentication {
        case .certificate(let certificatePEM, let keyPEM):
            tls.certificateChain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM)).map { .certificate($0) }
            tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(keyPEM), format: .pem))
        case .token(let p8, let keyIdentifier, let teamIdentifier):
            providerToken = try APNsProviderToken(
                p8: p8, keyIdentifier: keyIdentifier, teamIdentifier: teamIdentifier, clock: clock)
        }
        if !configuration.additionalTrustRootsPEM.isEmpty {
            let roots = try configuration.additionalTrustRootsPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0)) }
            tls.trustRoots = .certificates(roots)
        }
        return (tls, providerToken)
    }

    public func send(_ push: PendingPush) async -> PushDelivery {
        await send(push, renewingToken: false)
    }

    private func send(_ push: PendingPush, renewingToken: Bool) async -> PushDelivery {
        let token = push.pushToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? push.pushToken
        var request = HTTPClientRequest(url: "\(configuration.environment.baseURL)/3/device/\(token)")
        request.method = .POST
        request.headers.add(name: "apns-topic", value: push.orderTypeIdentifier)
        request.headers.add(name: "apns-push-type", value: "background")
        request.headers.add(name: "apns-priority", value: "5")
        let expiration = clock().addingTimeInterval(configuration.expiration.timeInterval)
        request.headers.add(name: "apns-expiration", value: String(Int(expiration.timeIntervalSince1970)))
        request.headers.add(name: "content-type", value: "application/json")
        if let providerToken {
            do {
                request.headers.add(name: "authorization", value: "bearer \(try providerToken.current(renew: renewingToken))")
            } catch {
                return .dropped(reason: error.description)
            }
        }
        request.body = .bytes(ByteBuffer(string: "{}"))
        do {
            let response = try await http.execute(request, timeout: .init(configuration.requestTimeout))
            let body = try await response.body.collect(upTo: 64 << 10)
            let reason = Self.reason(in: body) ?? "HTTP \(response.status.code)"
            switch response.status.code {
            case 200: return .delivered
            case 410: return .unregistered(reason: reason)
            case 400 where reason == "BadDeviceToken" || reason == "DeviceTokenNotForTopic": return .unregistered(reason: reason)
            case 403 where reason == "ExpiredProviderToken" && !renewingToken:
                return await send(push, renewingToken: true)
            case 403 where reason == "ExpiredProviderToken": return .retry(reason: reason)
            case 429, 500...599: return .retry(reason: reason)
            default: return .dropped(reason: reason)
            }
        } catch {
            return .retry(reason: "\(error)")
        }
    }

    /// APNs's `{"reason": "BadDeviceToken"}`.
    static func reason(in body: ByteBuffer) -> String? {
        struct Answer: Decodable { var reason: String? }
        return (try? JSONDecoder().decode(Answer.self, from: Data(body.readableBytesView)))?.reason
    }

    /// Closes the client's connections; for a client used outside a `ServiceGroup`.
    public func shutdown() async throws {
        try await http.shutdown()
    }
}

/// In a `ServiceGroup` the client lives until its graceful shutdown — after the services that
/// send through it, when it is placed before them — and then closes its connections.
extension APNsClient: Service {
    public func run() async throws {
        try? await gracefulShutdown()
        try await http.shutdown()
    }
}
