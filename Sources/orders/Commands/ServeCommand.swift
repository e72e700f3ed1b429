import ArgumentParser
import Foundation
import Logging
import OrdersService
import WalletOrders
import WalletOutbox
import WalletPrimitives

/// `orders serve`: Apple's Orders web service, the merchant API, `/health` and `/metrics` over
/// the store, until SIGTERM or SIGINT (which drain in-flight requests and exit 0).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store to Wallet devices, merchants, financial-data clients, the owner, customers and the operator.",
        discussion: CommandGuide.discussion(
            "serve",
            """
            Serves, on one port: Apple's Orders web service for Wallet devices (--base-path/v1/…); \
            the merchant API with API keys (/api/v1/…, orders keys create); financial data for the \
            clients the owner consents to — OAuth, the data API and its streams (/finance/…, \
            /.well-known/oauth-authorization-server) — and the owner's pages: sign-in, the consent \
            sheet, the transaction picker, Settings (/finance); customers' order pages with Add to \
            Apple Wallet (/orders/…, orders link); the operator console (/console); /health and \
            /metrics. Behind a proxy: docs/deployment.md.

            The first line on standard output is `listening on http://HOST:PORT` (with --port 0, \
            the port the system chose). SIGTERM or SIGINT stop accepting connections, finish the \
            requests in flight (for up to --shutdown-timeout seconds) and exit 0; the process is \
            gone 5 s after that whatever is stuck. Request logs go to standard error \
            (ORDERS_LOG_LEVEL, default info), through a 1 MiB buffer: lines that do not fit \
            while standard error is slow are dropped and counted, never waited for.
            """))

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var trust: TrustOptions

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "port"))
    var port = 8080

    @Option(
        name: .customLong("base-path"),
        help: ArgumentHelp("The path of the webServiceURL in order.json, where Apple's endpoints live.", valueName: "path"))
    var basePath = "/"

    @OptionGroup var push: PushOptions

    @Option(
        name: .customLong("tls-certificate"),
        help: ArgumentHelp("Serve HTTPS with this certificate chain (PEM); behind a proxy, leave it out.", valueName: "file"))
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The TLS certificate's private key (PEM).", valueName: "file"))
    var tlsKey: String?

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp("Close a connection that sends and receives nothing for this many seconds.", valueName: "seconds"))
    var idleTimeout = 60

    @Option(
        name: .customLong("request-timeout"),
        help: ArgumentHelp(
            "Close a connection whose request (head and body) takes longer than this many seconds to arrive.",
            valueName: "seconds"))
    var requestTimeout = 60

    @Option(
        name: .customLong("shutdown-timeout"),
        help: ArgumentHelp("After SIGTERM, how long requests in flight may take before they are cut.", valueName: "seconds"))
    var shutdownTimeout = 10

    @Option(
        name: .customLong("max-devices-per-order"),
        help: ArgumentHelp("The most devices registered for one order.", valueName: "count"))
    var devicesPerOrder = RegistrationLimits.default.devicesPerOrder

    @Option(
        name: .customLong("max-orders-per-device"),
        help: ArgumentHelp("The most orders one device is registered for.", valueName: "count"))
    var ordersPerDevice = RegistrationLimits.default.ordersPerDevice

    @Option(
        name: .customLong("tracking-rate"),
        help: ArgumentHelp(
            "Tracking webhook bodies one endpoint may post per second (bursts of five seconds' worth, at least 100); more are answered 429.",
            valueName: "per-second"))
    var trackingRate = ServiceLimits.default.trackingRate.perSecond

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The origin clients and browsers reach this service at (https://wallet.example): the OAuth issuer. Default: each request's own scheme and Host.",
            valueName: "url"))
    var publicURL: String?

    @OptionGroup var webServiceURLs: WebServiceURLOptions

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A reverse proxy's address whose X-Forwarded-For and X-Forwarded-Proto are believed (repeatable).",
            valueName: "address"))
    var trustedProxies: [String] = []

    @Option(
        name: .customLong("authorization-code-lifetime"),
        help: ArgumentHelp("How long an authorization or picker code lives, 1–60 seconds.", valueName: "seconds"))
    var codeLifetime = 60

    @Option(
        name: .customLong("session-idle-timeout"),
        help: ArgumentHelp("Sign the owner out after this many minutes without a request.", valueName: "minutes"))
    var sessionIdleMinutes = 30

    @Option(
        name: .customLong("session-lifetime"),
        help: ArgumentHelp("Sign the owner out this many hours after signing in, whatever happens.", valueName: "hours"))
    var sessionHours = 12

    @Flag(
        name: .customLong("allow-private-webhooks"),
        help: ArgumentHelp(
            "Let background deliveries go to loopback, private and link-local addresses (and http to loopback)."))
    var allowPrivateWebhooks = false

    @Option(
        name: .customLong("max-delivery-endpoints"),
        help: ArgumentHelp("The most background-delivery endpoints one client may register.", valueName: "count"))
    var maximumDeliveryEndpoints = BackgroundDeliveryPolicy().maximumEndpointsPerClient

    @Option(
        name: .customLong("max-history-streams"),
        help: ArgumentHelp(
            "The most history streams (Server-Sent Events) open at once on this instance; more are answered 429.",
            valueName: "count"))
    var maximumHistoryStreams = ServiceLimits.default.historyStreams

    @Option(
        name: .customLong("max-history-streams-per-client"),
        help: ArgumentHelp("The most history streams one financial-data client may hold open at once.", valueName: "count"))
    var maximumHistoryStreamsPerClient = ServiceLimits.default.historyStreamsPerClient

    @Option(
        name: .customLong("outbox-lease"),
        help: ArgumentHelp(
            "How long a push or delivery being sent is kept from other instances; one that dies holding it delays it this much.",
            valueName: "seconds"))
    var outboxLease = 60

    @Option(
        name: .customLong("signing-check-interval"),
        help: ArgumentHelp(
            "How often to check that this instance can sign with each active and staged identity (orders signing status).",
            valueName: "seconds"))
    var signingCheckInterval = 30

    func validate() throws {
        guard (1...3_600).contains(signingCheckInterval) else {
            throw ValidationError("--signing-check-interval must be 1…3600 seconds, not \(signingCheckInterval)")
        }
        guard (1...100_000).contains(maximumHistoryStreams), (1...1_000).contains(maximumHistoryStreamsPerClient) else {
            throw ValidationError("--max-history-streams takes 1…100000 and --max-history-streams-per-client 1…1000")
        }
        guard (1...3_600).contains(outboxLease) else {
            throw ValidationError("--outbox-lease must be 1…3600 seconds, not \(outboxLease)")
        }
        guard (1...100).contains(maximumDeliveryEndpoints) else {
            throw ValidationError("--max-delivery-endpoints must be 1…100, not \(maximumDeliveryEndpoints)")
        }
        guard (1...60).contains(codeLifetime) else {
            throw ValidationError("--authorization-code-lifetime must be 1…60 seconds, not \(codeLifetime)")
        }
        guard (1...1_440).contains(sessionIdleMinutes), (1...720).contains(sessionHours) else {
            throw ValidationError("--session-idle-timeout takes 1…1440 minutes and --session-lifetime 1…720 hours")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535, not \(port)") }
        guard (1...86_400).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout must be 1…86400 seconds, not \(idleTimeout)")
        }
        guard (1...3600).contains(requestTimeout) else {
            throw ValidationError("--request-timeout must be 1…3600 seconds, not \(requestTimeout)")
        }
        guard (1...3600).contains(shutdownTimeout) else {
            throw ValidationError("--shutdown-timeout must be 1…3600 seconds, not \(shutdownTimeout)")
        }
        guard devicesPerOrder >= 1, ordersPerDevice >= 1 else {
            throw ValidationError("--max-devices-per-order and --max-orders-per-device must be at least 1")
        }
        guard basePath.hasPrefix("/") else { throw ValidationError("--base-path must start with '/'") }
        if let publicURL, !Self.isOrigin(publicURL) {
            throw ValidationError("--public-url must be an origin, https://HOST[:PORT], without a path, query or fragment")
        }
        if (tlsCertificate == nil) != (tlsKey == nil) { throw ValidationError("give --tls-certificate and --tls-key together") }
    }

    /// Whether `url` is what `--public-url` takes: an http or https origin, no path, query,
    /// fragment or user (`orders doctor` checks it the same way).
    static func isOrigin(_ url: String) -> Bool {
        let components = URLComponents(string: url)
        let scheme = components?.scheme?.lowercased()
        guard let components, scheme == "https" || scheme == "http", components.host?.isEmpty == false else { return false }
        return (components.path.isEmpty || components.path == "/") && components.query == nil && components.fragment == nil
            && components.user == nil
    }

    func run() async throws {
        FileDescriptorLimit.raiseToMaximum()
        // A log reader that went away must not kill the service: a write to its pipe fails instead.
        signal(SIGPIPE, SIG_IGN)
        LogSink.standardError.startBackgroundWriting()
        var logger = Logger(label: "orders.serve")
        logger.logLevel = Orders.logLevel(default: .info)
        var limits = ServiceLimits.default
        limits.requestReadTimeout = .seconds(requestTimeout)
        limits.historyStreams = maximumHistoryStreams
        limits.historyStreamsPerClient = maximumHistoryStreamsPerClient
        limits.trackingRate = Rate(burst: max(100, Int(trackingRate * 5)), perSecond: trackingRate)
        var configuration = OrdersServer.Configuration(
            host: host, port: port, idleTimeout: .seconds(idleTimeout), shutdownTimeout: .seconds(shutdownTimeout),
            cancellationTimeout: .seconds(ShutdownWatchdog.cancellationTime), push: try push.configuration(),
            service: OrdersService.Configuration(
                basePath: basePath, limits: limits, logger: logger, trustedProxies: Set(trustedProxies),
                servesTLS: tlsCertificate != nil, publicURL: publicURL?.lowercased(),
                allowedWebServiceURLs: try webServiceURLs.allowed()),
            outboxLease: .seconds(outboxLease))
        configuration.signingCheckInterval = .seconds(signingCheckInterval)
        if let tlsCertificate, let tlsKey {
            configuration.tls = OrdersServer.TLSCredentials(
                certificateChainPEM: try FileInput.contents(of: tlsCertificate, what: "TLS certificate"),
                privateKeyPEM: try FileInput.contents(of: tlsKey, what: "TLS key"), certificateSource: tlsCertificate,
                keySource: tlsKey)
        }
        let server: OrdersServer
        do {
            // Credentials first: a file that cannot be used stops `serve` before it creates a store.
            server = try OrdersServer(configuration: configuration)
        } catch {
            throw CommandFailure(error.description)
        }
        // Before the store: a port that is taken must not leave a new store behind.
        try ListeningProbe.check(host: host, port: port)
        let wallet = try await storeOptions.wallet(
            create: true, trust: trust,
            registrationLimits: RegistrationLimits(devicesPerOrder: devicesPerOrder, ordersPerDevice: ordersPerDevice),
            consentPolicy: ConsentPolicy(
                codeLifetime: TimeInterval(codeLifetime),
                sessions: SessionPolicy(
                    idleTimeout: TimeInterval(sessionIdleMinutes * 60), absoluteLifetime: TimeInterval(sessionHours * 3_600))),
            backgroundDelivery: BackgroundDeliveryPolicy(
                targets: WebhookTargets(allowsPrivateAddresses: allowPrivateWebhooks),
                maximumEndpointsPerClient: maximumDeliveryEndpoints),
            poolRunByOwner: true)
        let scheme = tlsCertificate == nil ? "http" : "https"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let watchdog = ShutdownWatchdog(gracePeriod: shutdownTimeout)
        var failure: CommandFailure?
        do {
            try await server.run(wallet: wallet) { port in Output.line("listening on \(scheme)://\(shownHost):\(port)") }
        } catch {
            failure = CommandFailure(error.description)
        }
        LogSink.standardError.flush(timeout: .seconds(ShutdownWatchdog.logFlushTime))
        withExtendedLifetime(watchdog) {}
        if let failure { throw failure }
    }
}

/// APNs credentials: an Order Type ID certificate and key (TLS client authentication), or a
/// `.p8` key with its key id and team id (token authentication). Without either, pushes are
/// logged instead of sent.
struct PushOptions: ParsableArguments {
    enum Environment: String, ExpressibleByArgument, CaseIterable {
        case sandbox, production
    }

    @Option(
        name: .customLong("push-certificate"),
        help: ArgumentHelp("The Order Type ID certificate (PEM; may hold the chain).", valueName: "file"))
    var certificate: String?

    @Option(name: .customLong("push-key"), help: ArgumentHelp("The certificate's private key (PEM).", valueName: "file"))
    var key: String?

    @Option(name: .customLong("push-key-p8"), help: ArgumentHelp("An APNs token key (AuthKey_XXXX.p8).", valueName: "file"))
    var p8: String?

    @Option(name: .customLong("key-id"), help: ArgumentHelp("The .p8 key's id.", valueName: "id"))
    var keyIdentifier: String?

    @Option(name: .customLong("team-id"), help: ArgumentHelp("The team id that owns the .p8 key.", valueName: "id"))
    var teamIdentifier: String?

    @Option(name: .customLong("apns"), help: ArgumentHelp("APNs environment: sandbox or production.", valueName: "environment"))
    var environment: Environment = .production

    @Option(
        name: .customLong("apns-url"),
        help: ArgumentHelp(
            "Push through this https URL instead of Apple's (an APNs proxy, or a test double); overrides --apns.",
            valueName: "url"))
    var apnsURL: String?

    @Option(
        name: .customLong("apns-ca"),
        help: ArgumentHelp("A root certificate (PEM) to trust for --apns-url, beside the system's.", valueName: "file"))
    var apnsCertificateAuthority: String?

    func validate() throws {
        if (certificate == nil) != (key == nil) { throw ValidationError("give --push-certificate and --push-key together") }
        let token = [p8, keyIdentifier, teamIdentifier].compactMap { $0 }
        if !token.isEmpty, token.count != 3 { throw ValidationError("give --push-key-p8, --key-id and --team-id together") }
        if certificate != nil, p8 != nil { throw ValidationError("give a push certificate or a .p8 key, not both") }
        if let apnsURL, URL(string: apnsURL)?.scheme != "https" || URL(string: apnsURL)?.host == nil {
            throw ValidationError("--apns-url must be an https URL (\(MessageText.quote(apnsURL)))")
        }
        if apnsCertificateAuthority != nil, apnsURL == nil { throw ValidationError("--apns-ca goes with --apns-url") }
        for identifier in [keyIdentifier, teamIdentifier].compactMap({ $0 })
        where identifier.isEmpty || !identifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            throw ValidationError("--key-id and --team-id are letters and digits (\(MessageText.quote(identifier)))")
        }
    }

    /// APNs's configuration, or nil without credentials (pushes are then logged).
    func configuration() throws -> APNsConfiguration? {
        let authentication: APNsConfiguration.Authentication
        if let certificate, let key {
            authentication = .certificate(
                certificatePEM: try FileInput.contents(of: certificate, what: "push certificate"),
                privateKeyPEM: try FileInput.contents(of: key, what: "push key"))
        } else if let p8, let keyIdentifier, let teamIdentifier {
            authentication = .token(
                p8: try FileInput.contents(of: p8, what: "APNs key"), keyIdentifier: keyIdentifier, teamIdentifier: teamIdentifier
            )
        } else {
            return nil
        }
        var apns: APNsConfiguration.Environment = environment == .sandbox ? .sandbox : .production
        if let apnsURL, let url = URL(string: apnsURL) { apns = .custom(url) }
        return APNsConfiguration(
            environment: apns, authentication: authentication,
            additionalTrustRootsPEM: try apnsCertificateAuthority.map { [try FileInput.contents(of: $0, what: "APNs root")] }
                ?? [])
    }
}

/// A server holds one descriptor per connection: raise the soft limit to the hard one, as
/// servers do, rather than fail at 1024 connections.
enum FileDescriptorLimit {
    static func raiseToMaximum() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
