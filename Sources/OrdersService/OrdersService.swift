import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import WalletOrders

/// The HTTP service over a ``WalletOrders/WalletStore``: Apple's Orders web service for Wallet
/// devices (under ``Configuration/basePath``), the merchant API (`/api/v1`), `/health` and
/// `/metrics`.
///
/// ```swift
/// let wallet = try WalletStore(path: "orders.sqlite")
/// let service = OrdersService(wallet: wallet, configuration: .init(basePath: "/orders"))
/// let app = service.application(host: "127.0.0.1", port: 8080)
/// try await app.runService()   // SIGTERM and SIGINT drain in-flight requests
/// ```
public struct OrdersService: Sendable {
    public struct Configuration: Sendable {
        /// Where Apple's endpoints live: the path of the `webServiceURL` in order.json (`/` when
        /// the URL has none). The merchant API, `/health` and `/metrics` stay at the root.
        public var basePath: String
        public var limits: ServiceLimits
        public var metrics: ServiceMetrics
        public var logger: Logger

        public init(
            basePath: String = "/", limits: ServiceLimits = .default, metrics: ServiceMetrics = ServiceMetrics(),
            logger: Logger = Logger(label: "orders.serve")
        ) {
            self.basePath = basePath
            self.limits = limits
            self.metrics = metrics
            self.logger = logger
        }
    }

    public let wallet: WalletStore
    public let configuration: Configuration

    public init(wallet: WalletStore, configuration: Configuration = Configuration()) {
        self.wallet = wallet
        self.configuration = configuration
    }

    /// Every route, behind the middleware that adds request ids, maps errors and counts requests.
    public func router() -> Router<OrdersRequestContext> {
        let router = Router(context: OrdersRequestContext.self)
        router.add(middleware: ServiceMiddleware(metrics: configuration.metrics))
        let base = Self.normalized(basePath: configuration.basePath)
        let deviceGroup = router.group(RouterPath(base.isEmpty ? "/" : base))
        DeviceRoutes(
            webService: wallet.webService, limits: configuration.limits,
            archives: ArchiveCache(byteLimit: configuration.limits.archiveCacheSize)
        ).add(to: deviceGroup)
        MerchantRoutes(wallet: wallet, limits: configuration.limits).add(to: router)
        OperationalRoutes(wallet: wallet, metrics: configuration.metrics).add(to: router)
        return router
    }

    /// HTTP/1.1 that closes a connection idle for `idleTimeout`, so that slow or abandoned
    /// clients do not hold a descriptor forever.
    public static func server(idleTimeout: Duration = .seconds(60)) -> HTTPServerBuilder {
        .http1(configuration: HTTP1Channel.Configuration(idleTimeout: TimeAmount(idleTimeout)))
    }

    /// ``server(idleTimeout:)`` over TLS.
    public static func server(tls: TLSConfiguration, idleTimeout: Duration = .seconds(60)) throws -> HTTPServerBuilder {
        try .tls(server(idleTimeout: idleTimeout), tlsConfiguration: tls)
    }

    /// The application, ready for `runService()` or a `ServiceGroup`. `onServerRunning` receives
    /// the bound port (useful with port 0). `server` is ``server(idleTimeout:)`` by default.
    public func application(
        host: String = "127.0.0.1", port: Int = 8080, server: HTTPServerBuilder? = nil,
        services: [any Service] = [], onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(), server: server ?? Self.server(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "wallet-orders"),
            services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: configuration.logger)
    }

    /// `/orders/` → `/orders`; `/` → ``.
    static func normalized(basePath: String) -> String {
        let trimmed = basePath.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        return trimmed.isEmpty ? "" : "/" + trimmed
    }
}
