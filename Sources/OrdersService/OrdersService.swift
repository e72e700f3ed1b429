import CustomerPages
import DeviceAPI
import FinanceAPI
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import MerchantAPI
import NIOCore
import NIOSSL
import OwnerPages
import ServiceCore
import ServiceLifecycle
import Tracing
import WalletOrders

/// The HTTP service over a ``WalletOrders/WalletStore``: Apple's Orders web service for Wallet
/// devices (under ``Configuration/basePath``), the merchant API (`/api/v1`), financial data on the
/// network (`/finance`: the owner's consent pages, OAuth, the data API), `/health` and
/// `/metrics`.
///
/// ```swift
/// let wallet = try WalletStore(path: "orders.sqlite")
/// let service = OrdersService(wallet: wallet, configuration: .init(basePath: "/orders"))
/// let app = service.application(host: "127.0.0.1", port: 8080, routes: { router in
///     // your own routes, served beside the service's and behind its middleware
///     router.get("/internal/ping") { _, _ in "pong" }
/// })
/// try await app.runService()   // SIGTERM and SIGINT drain in-flight requests
/// ```
///
/// To build the `Application` yourself, give your router to ``addRoutes(to:)`` and serve that
/// router: it is the one that holds the service's routes.
public struct OrdersService: Sendable {
    public struct Configuration: Sendable {
        /// Where Apple's endpoints live: the path of the `webServiceURL` in order.json (`/` when
        /// the URL has none). The merchant API, `/health` and `/metrics` stay at the root.
        public var basePath: String
        public var limits: ServiceLimits
        public var metrics: ServiceMetrics
        public var logger: Logger
        /// Reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed: the client's
        /// address for rate limits and sign-in throttling, and whether cookies are `Secure`.
        public var trustedProxies: Set<String>
        /// This server speaks TLS itself: the pages' cookies are `Secure`.
        public var servesTLS: Bool
        /// The origin (`https://wallet.example`) clients and browsers reach the service at, behind
        /// whatever proxy: the OAuth issuer identifier the authorization server's metadata and every
        /// authorization response (`iss`) carry. Nil: each request's own scheme and `Host`, which
        /// is right only when the service is reached directly.
        public var publicURL: String?
        /// Web service URLs, besides this service's own, that authored versions of an order type
        /// may name (a merchant that runs its own Orders web service), by order type identifier;
        /// each an absolute `https` URL ending with `/` (docs/authoring.md, "Where devices go").
        public var allowedWebServiceURLs: [String: Set<String>]
        /// Where each request is a span (swift-distributed-tracing), its parent read from the
        /// request's headers as the tracer reads them (W3C `traceparent` for OpenTelemetry's).
        /// Nil: the tracer bootstrapped with `InstrumentationSystem` — none, no spans. Give the
        /// storage backend the same one (its `Options.tracer`) for a span per storage call.
        public var tracer: (any Tracer)?

        public init(
            basePath: String = "/", limits: ServiceLimits = .default, metrics: ServiceMetrics = ServiceMetrics(),
            logger: Logger = Logger(label: "orders.serve"), trustedProxies: Set<String> = [], servesTLS: Bool = false,
            publicURL: String? = nil, allowedWebServiceURLs: [String: Set<String>] = [:], tracer: (any Tracer)? = nil
        ) {
            self.basePath = basePath
            self.limits = limits
            self.metrics = metrics
            self.logger = logger
            self.trustedProxies = trustedProxies
            self.servesTLS = servesTLS
            self.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            self.allowedWebServiceURLs = allowedWebServiceURLs
            self.tracer = tracer
        }
    }

    public let wallet: WalletStore
    public let configuration: Configuration
    private let rateLimits: RateLimits

    public init(wallet: WalletStore, configuration: Configuration = Configuration()) {
        self.wallet = wallet
        self.configuration = configuration
        rateLimits = RateLimits(limits: configuration.limits)
    }

    /// Adds every route of the service to `router`, behind the middleware that checks `Host`,
    /// adds request ids, maps errors and counts and logs requests. Routes you add to `router`
    /// afterwards are behind the same middleware. Serve this router (create it with
    /// `Router(context: OrdersRequestContext.self, options: .autoGenerateHeadEndpoints)` so that
    /// `HEAD` answers as `GET` does).
    public func addRoutes(to router: Router<OrdersRequestContext>) {
        let table = RouteTable()
        router.add(
            middleware: ServiceMiddleware(metrics: configuration.metrics, tracer: configuration.tracer, routes: table))
        router.add(
            middleware: ForwardedClientMiddleware(
                trustedProxies: configuration.trustedProxies, servesTLS: configuration.servesTLS,
                publicURL: configuration.publicURL))
        let base = Self.normalized(basePath: configuration.basePath)
        let deviceGroup = router.group(RouterPath(base.isEmpty ? "/" : base))
        let archives = ArchiveCache(byteLimit: configuration.limits.archiveCacheSize)
        DeviceRoutes(
            webService: wallet.webService, limits: configuration.limits, rateLimits: rateLimits,
            metrics: configuration.metrics, archives: archives
        ).add(to: deviceGroup, prefix: base, table: table)
        // The customer's order page and its Add to Apple Wallet download (signed links).
        CustomerOrderPages(
            webService: wallet.webService, archives: archives,
            rendered: RenderedOrderCache(byteLimit: configuration.limits.archiveCacheSize)
        ).add(to: router, table: table)
        let webService = webServicePolicy
        MerchantRoutes(
            wallet: wallet, limits: configuration.limits, webService: webService, metrics: configuration.metrics,
            trackingRate: rateLimits.tracking
        ).add(to: router, table: table)
        OperationalRoutes(wallet: wallet, metrics: configuration.metrics).add(to: router, table: table)
        // Financial data on the network: the owner's pages, the OAuth endpoints, the data API.
        FinancePages(wallet: wallet).add(to: router, table: table)
        // The operator console.
        ConsolePages(wallet: wallet, limits: configuration.limits, webService: webService).add(to: router, table: table)
        TokenRoutes(wallet: wallet, rateLimiter: rateLimits.tokens).add(to: router, table: table)
        FinanceAPIRoutes(wallet: wallet, streams: rateLimits.historyStreams, clientAuthentication: rateLimits.tokens).add(
            to: router, table: table)
    }

    /// The `webServiceURL` the versions this service authors get (its public URL and base path),
    /// and the others the operator allowed.
    var webServicePolicy: WebServiceURLPolicy {
        WebServiceURLPolicy(
            serviceURL: configuration.publicURL.map { $0 + Self.normalized(basePath: configuration.basePath) + "/" },
            allowed: configuration.allowedWebServiceURLs)
    }

    /// A new router holding every route.
    func router() -> Router<OrdersRequestContext> {
        let router = Router(context: OrdersRequestContext.self, options: .autoGenerateHeadEndpoints)
        addRoutes(to: router)
        return router
    }

    /// HTTP/1.1 that closes a connection idle for `idleTimeout`, and one whose request takes
    /// longer than `limits.requestReadTimeout` or arrives slower than `limits.minimumRequestRate`
    /// (``RequestReadGuard``), so that slow or abandoned clients do not hold a connection.
    public static func server(idleTimeout: Duration = .seconds(60), limits: ServiceLimits = .default) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(responder: responder, idleTimeout: idleTimeout, limits: limits)
        }
    }

    /// ``server(idleTimeout:limits:)`` over TLS.
    public static func server(
        tls: TLSConfiguration, idleTimeout: Duration = .seconds(60), limits: ServiceLimits = .default
    ) throws -> HTTPServerBuilder {
        // Checked here, so that a bad certificate fails before the server starts.
        _ = try NIOSSLContext(configuration: tls)
        return HTTPServerBuilder { responder in
            try TLSChannel(
                GuardedHTTP1Channel(responder: responder, idleTimeout: idleTimeout, limits: limits), tlsConfiguration: tls)
        }
    }

    /// The application, ready for `runService()` or a `ServiceGroup`, serving every route and the
    /// ones `routes` adds (after the service's, behind the same middleware). `onServerRunning`
    /// receives the bound port (useful with port 0). `server` is ``server(idleTimeout:limits:)``
    /// with this service's limits by default.
    public func application(
        host: String = "127.0.0.1", port: Int = 8080, server: HTTPServerBuilder? = nil, services: [any Service] = [],
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        routes: (Router<OrdersRequestContext>) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = router()
        routes(router)
        return Application(
            router: router, server: server ?? Self.server(limits: configuration.limits),
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
