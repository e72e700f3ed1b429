import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOSSL
import ServiceCore
import ServiceLifecycle
import WalletOrders
import WalletOutbox
import WalletPrimitives

/// The whole `orders serve`, assembled and run: the storage backend, the APNs client, the push
/// outbox drainer, the consent sweeper, background delivery (the webhook sender, the planner
/// deciding deliveries, their drainer) and the HTTP application, as services of one
/// `ServiceGroup`, started in that order and shut down in the reverse one — requests finish
/// first, then the deliveries and pushes in flight, then connections close, then the store.
///
/// ```swift
/// var configuration = OrdersServer.Configuration(port: 8080)
/// configuration.push = APNsConfiguration(environment: .production, authentication: credentials)
/// let server = try OrdersServer(configuration: configuration)  // checks the credentials
/// let wallet = try WalletStore(path: "orders.sqlite")
/// try await server.run(wallet: wallet) { port in print("listening on \(port)") }
/// // until SIGTERM or SIGINT; the wallet's backend is closed at the end
/// ```
public struct OrdersServer: Sendable {
    /// A certificate chain and its key, as PEM, with where each came from (for messages).
    public struct TLSCredentials: Sendable {
        public var certificateChainPEM: Data
        public var privateKeyPEM: Data
        public var certificateSource: String
        public var keySource: String

        public init(certificateChainPEM: Data, privateKeyPEM: Data, certificateSource: String, keySource: String) {
            self.certificateChainPEM = certificateChainPEM
            self.privateKeyPEM = privateKeyPEM
            self.certificateSource = certificateSource
            self.keySource = keySource
        }
    }

    public struct Configuration: Sendable {
        public var host: String
        /// 0 picks a free port; `run`'s `onListening` receives the one bound.
        public var port: Int
        /// HTTPS with these; HTTP without (behind a proxy that terminates TLS).
        public var tls: TLSCredentials?
        /// A connection that sends and receives nothing this long is closed.
        public var idleTimeout: Duration
        /// After SIGTERM or SIGINT, how long requests in flight may take before they are cut.
        public var shutdownTimeout: Duration
        /// After that, how long the services have to end once cancelled.
        public var cancellationTimeout: Duration
        /// APNs; without it, pushes are logged instead of sent (``WalletOutbox/RecordingPushSender``).
        public var push: APNsConfiguration?
        /// The routes' configuration: base path, limits, metrics, logger.
        public var service: OrdersService.Configuration
        /// How background deliveries are sent. Where they may go is the wallet's
        /// ``WalletOrders/BackgroundDeliveryPolicy/targets``, checked again before each send: the
        /// policy that allowed a URL is the one the sender asks (an ``WalletOutbox/WebhookTargets``;
        /// any other policy is sent under a default `WebhookTargets`, public addresses only).
        public var webhooks: HTTPWebhookSender.Configuration
        /// How long a claimed push or delivery is kept from other drainers: a sender that dies
        /// holding one delays it by this much. Keep it above the slowest send (10 s for a
        /// delivery).
        public var outboxLease: Duration
        /// How often this instance checks that it can sign with each active and staged identity
        /// and records it for `orders signing status` and `activate` (default 30 s).
        public var signingCheckInterval: Duration = .seconds(30)

        public init(
            host: String = "127.0.0.1", port: Int = 8080, tls: TLSCredentials? = nil, idleTimeout: Duration = .seconds(60),
            shutdownTimeout: Duration = .seconds(10), cancellationTimeout: Duration = .seconds(3),
            push: APNsConfiguration? = nil, service: OrdersService.Configuration = OrdersService.Configuration(),
            webhooks: HTTPWebhookSender.Configuration = HTTPWebhookSender.Configuration(), outboxLease: Duration = .seconds(60)
        ) {
            self.host = host
            self.port = port
            self.tls = tls
            self.idleTimeout = idleTimeout
            self.shutdownTimeout = shutdownTimeout
            self.cancellationTimeout = cancellationTimeout
            self.push = push
            self.service = service
            self.webhooks = webhooks
            self.outboxLease = outboxLease
        }

        /// What this configuration lacks for production, one sentence each: no APNs credentials
        /// (pushes are logged, not sent), or plain HTTP on an address other than loopback (no
        /// proxy can be in front of it). ``OrdersServer/run(wallet:onListening:)`` logs each once
        /// as a warning when it listens; `X-Forwarded-*` headers with no trusted proxy are warned about when the
        /// first arrives (docs/deployment.md).
        public var deploymentWarnings: [String] {
            var warnings: [String] = []
            if push == nil {
                warnings.append(
                    "pushes will not be sent: no APNs credentials (--push-key-p8 with --key-id and --team-id, or "
                        + "--push-certificate with --push-key); each push is logged instead")
            }
            if tls == nil, !Self.isLoopback(host) {
                warnings.append(
                    "plain HTTP on \(host), which is not a loopback address: listen on 127.0.0.1 behind a proxy that "
                        + "terminates TLS, or serve HTTPS with --tls-certificate and --tls-key (docs/deployment.md)")
            }
            return warnings
        }

        static func isLoopback(_ host: String) -> Bool {
            let host = host.lowercased()
            return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
        }
    }

    public let configuration: Configuration
    private let server: HTTPServerBuilder

    /// Checks the TLS and APNs credentials, so that unusable ones stop the server before a store
    /// is opened or anything listens.
    ///
    /// - Throws: ``OrdersServerError`` naming the file or the credentials that cannot be used.
    public init(configuration: Configuration) throws(OrdersServerError) {
        self.configuration = configuration
        server = try Self.server(configuration)
        if let push = configuration.push {
            do {
                try APNsClient.check(push)
            } catch {
                throw OrdersServerError("cannot use the APNs credentials: \(error)")
            }
        }
    }

    /// Serves `wallet` until SIGTERM or SIGINT, then stops in order (see ``OrdersServer``) and
    /// closes its backend. `onListening` receives the bound port once the server listens.
    ///
    /// - Throws: ``OrdersServerError`` when the address cannot be listened on, or a service
    ///   failed.
    public func run(
        wallet: WalletStore, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws(OrdersServerError) {
        let logger = configuration.service.logger
        var services: [any Service] = [StoreService(wallet: wallet)]
        let sender: any PushSender
        if let push = configuration.push {
            do {
                let apns = try APNsClient(configuration: push, logger: logger)
                services.append(apns)
                sender = apns
            } catch {
                try? await wallet.close()
                throw OrdersServerError("cannot use the APNs credentials: \(error)")
            }
        } else {
            sender = RecordingPushSender(logger: logger)
        }
        let service = OrdersService(wallet: wallet, configuration: configuration.service)
        let drainer = OutboxDrainer(
            outbox: wallet.outboxes.pushes, registrations: wallet.outboxes.registrations, sender: sender,
            configuration: .init(lease: configuration.outboxLease), logger: logger,
            onOutcome: configuration.service.metrics.recordPush(outcome:),
            onCoalesced: configuration.service.metrics.recordCoalescedPushes)
        // Said once the server listens: a server that cannot start has nothing to warn about.
        let warnings = configuration.deploymentWarnings
        let application = service.application(
            host: configuration.host, port: configuration.port, server: server,
            onServerRunning: { port in
                for warning in warnings { logger.warning("\(warning)") }
                await onListening(port)
            })
        services += [
            drainer, ConsentSweeper(wallet: wallet, logger: logger), SigningExpiryWatch(wallet: wallet, logger: logger),
            TrackingSweeper(
                wallet: wallet, webService: service.webServicePolicy, metrics: configuration.service.metrics, logger: logger),
            SigningIdentityReporter(
                wallet: wallet, instance: SigningIdentityReporter.instanceName(), interval: configuration.signingCheckInterval,
                logger: logger),
        ]
        if wallet.configuration.availability.isDataAvailable(.financialData) {
            do {
                services += try Self.backgroundDelivery(wallet: wallet, configuration: configuration)
            } catch {
                try? await wallet.close()
                throw error
            }
        }
        services.append(application)
        var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
        group.maximumCancellationDuration = configuration.cancellationTimeout
        let address = "\(configuration.host):\(configuration.port)"
        do {
            // The service's tasks run on the store's own threads, whatever the backend (see
            // `WalletStore.taskExecutor`): reads without a hop, and no long unit of work on
            // Swift concurrency's pool or an event loop.
            try await withTaskExecutorPreference(wallet.taskExecutor) {
                try await ServiceGroup(configuration: group).run()
            }
        } catch let error as IOError {
            // Binding fails before anything is served: the port is taken, or not ours to use.
            throw OrdersServerError("cannot listen on \(address): \(String(cString: strerror(error.errnoCode)))")
        } catch is SocketAddressError.UnknownHost {
            throw OrdersServerError("cannot listen on \(address): no such host or address")
        } catch {
            throw OrdersServerError("the service stopped: \(error)")
        }
    }

    /// Background delivery's services, in starting order: the sender (closed after the drainer
    /// that uses it), the planner deciding deliveries, the drainer sending them.
    private static func backgroundDelivery(
        wallet: WalletStore, configuration: Configuration
    ) throws(OrdersServerError) -> [any Service] {
        let logger = configuration.service.logger
        let sender: HTTPWebhookSender
        do {
            let targets = wallet.configuration.backgroundDelivery.targets as? WebhookTargets ?? WebhookTargets()
            sender = try HTTPWebhookSender(targets: targets, configuration: configuration.webhooks)
        } catch {
            throw OrdersServerError("cannot use the webhook trust roots: \(error)")
        }
        let deliveries = wallet.outboxes.deliveries
        let planner = DeliveryPlannerService(deliveries: deliveries, clock: wallet.configuration.clock, logger: logger)
        let drainer = OutboxDrainer(
            deliveries: deliveries, access: wallet.outboxes.access, sender: sender,
            configuration: .init(lease: configuration.outboxLease), clock: wallet.configuration.clock, logger: logger,
            onOutcome: configuration.service.metrics.recordDelivery(outcome:))
        return [sender, planner, drainer]
    }

    /// HTTP/1.1, over TLS when the configuration has credentials.
    private static func server(_ configuration: Configuration) throws(OrdersServerError) -> HTTPServerBuilder {
        let limits = configuration.service.limits
        guard let tls = configuration.tls else {
            return OrdersService.server(idleTimeout: configuration.idleTimeout, limits: limits)
        }
        // NIOSSL's errors name no file ("failedToLoadCertificate"): say which one is wrong.
        guard let chain = try? NIOSSLCertificate.fromPEMBytes(Array(tls.certificateChainPEM)), !chain.isEmpty else {
            throw OrdersServerError("\(tls.certificateSource) holds no PEM certificate")
        }
        guard let key = try? NIOSSLPrivateKey(bytes: Array(tls.privateKeyPEM), format: .pem) else {
            throw OrdersServerError("\(tls.keySource) holds no PEM private key (an encrypted key is not supported)")
        }
        do {
            return try OrdersService.server(
                tls: TLSConfiguration.makeServerConfiguration(
                    certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)),
                idleTimeout: configuration.idleTimeout, limits: limits)
        } catch {
            throw OrdersServerError(
                "cannot use the TLS certificate and key (\(tls.certificateSource), \(tls.keySource)): \(error)")
        }
    }
}

/// Why ``OrdersServer`` could not start or stopped: one sentence naming what.
public struct OrdersServerError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The storage backend as the first service of the group: it runs what the backend runs (a
/// PostgreSQL pool opened to be run by its owner) and is closed last, after every service that
/// uses it has stopped.
struct StoreService: Service {
    let wallet: WalletStore

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await wallet.run() }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        try await wallet.close()
    }
}
