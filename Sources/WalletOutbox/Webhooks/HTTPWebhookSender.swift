import AsyncHTTPClient
import FinanceData
import Foundation
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import WalletPrimitives

/// Posts background deliveries: the URL checked again (``WebhookTargets``) and connected to at
/// the address the check approved, the body signed (``WebhookSignature``), redirects never
/// followed, the whole exchange within ``Configuration/timeout``, at most
/// ``Configuration/maximumResponseBytes`` of the answer read.
///
/// Connections are kept per checked address in a small pool of clients, closed when a client
/// falls out of it and at graceful shutdown (the sender is a `Service`).
public final class HTTPWebhookSender: WebhookSender, Service {
    public struct Configuration: Sendable {
        /// The most one delivery may take, connection to last byte read.
        public var timeout: Duration
        /// The most of a receiver's answer read; the rest is dropped with the connection.
        public var maximumResponseBytes: Int
        /// Receivers' HTTP clients kept (one per checked address).
        public var maximumClients: Int
        /// Trusted besides the system's roots (a test receiver's certificate).
        public var additionalTrustRootsPEM: [Data]
        public var userAgent: String

        public init(
            timeout: Duration = .seconds(10), maximumResponseBytes: Int = 64 << 10, maximumClients: Int = 16,
            additionalTrustRootsPEM: [Data] = [], userAgent: String = WalletOrdersVersion.userAgent
        ) {
            self.timeout = timeout
            self.maximumResponseBytes = maximumResponseBytes
            self.maximumClients = maximumClients
            self.additionalTrustRootsPEM = additionalTrustRootsPEM
            self.userAgent = userAgent
        }
    }

    let targets: WebhookTargets
    let configuration: Configuration
    private let clients: ClientPool

    public init(targets: WebhookTargets, configuration: Configuration = Configuration()) throws {
        self.targets = targets
        self.configuration = configuration
        var tls = TLSConfiguration.makeClientConfiguration()
        if !configuration.additionalTrustRootsPEM.isEmpty {
            let extra = try configuration.additionalTrustRootsPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0)) }
            tls.additionalTrustRoots = [.certificates(extra)]
        }
        clients = ClientPool(tls: tls, timeout: configuration.timeout, capacity: max(1, configuration.maximumClients))
    }

    public func send(_ delivery: PendingDelivery, at time: Date) async -> WebhookOutcome {
        let address: NetworkAddress
        do {
            address = try await targets.address(of: delivery.url)
        } catch {
            return .refused(error.message)
        }
        let body = WebhookBody(delivery).encoded
        var request = HTTPClientRequest(url: delivery.url.text)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Wallet-Delivery-ID", value: delivery.deliveryID.uuidString)
        request.headers.add(
            name: WebhookSignature.headerName, value: WebhookSignature.value(secret: delivery.secret, time: time, body: body))
        for header in StandardWebhookSignature.headers(
            secret: delivery.secret, id: delivery.deliveryID.uuidString, time: time, body: body)
        {
            request.headers.add(name: header.name, value: header.value)
        }
        request.body = .bytes(ByteBuffer(bytes: body))
        let client = await clients.client(for: delivery.url, at: address)
        let prepared = request
        let limit = configuration.maximumResponseBytes
        let timeout = configuration.timeout
        let started = ContinuousClock.now
        let response: HTTPClientResponse
        do {
            response = try await Self.within(timeout) {
                try await client.execute(prepared, timeout: TimeAmount(timeout))
            }
        } catch is TimedOut {
            return .retry("no answer within \(Int(timeout.timeInterval)) s")
        } catch {
            return .retry(String(describing: error))
        }
        // The status decides. The answer's body is read only to keep the connection, at most
        // `limit` bytes within what is left of the timeout; a slow or endless one is dropped
        // with its connection.
        let answer = response.body
        _ = try? await Self.within(max(.zero, timeout - (ContinuousClock.now - started))) {
            var read = 0
            for try await chunk in answer {
                read += chunk.readableBytes
                if read >= limit { break }
            }
            return read
        }
        return Self.outcome(status: Int(response.status.code))
    }

    /// The outcome an HTTP status means.
    static func outcome(status: Int) -> WebhookOutcome {
        switch status {
        case 200...299: .delivered(status: status)
        case 410: .gone("HTTP 410")
        case 408, 429, 500...599: .retry("HTTP \(status)")
        case 300...399: .refused("HTTP \(status): redirects are not followed")
        default: .refused("HTTP \(status)")
        }
    }

    /// Closes every receiver's connections; for a sender used outside a `ServiceGroup`.
    public func shutdown() async {
        await clients.shutdown()
    }

    /// In a `ServiceGroup` the sender lives until its graceful shutdown (after the drainer that
    /// sends through it, when placed before it), then closes its connections.
    public func run() async throws {
        try? await gracefulShutdown()
        await clients.shutdown()
    }

    private struct TimedOut: Error {}

    /// `body`, or ``TimedOut`` when it takes longer than `duration` (and `body` is cancelled).
    private static func within<T: Sendable>(
        _ duration: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws
        -> T
    {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: duration)
                throw TimedOut()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw TimedOut() }
            return first
        }
    }
}

/// HTTP clients per receiver address, least recently used first out. A client for a host name
/// connects only to the address checked for it (AsyncHTTPClient's DNS override; TLS still
/// verifies the name).
private actor ClientPool {
    struct Key: Hashable {
        var scheme: Bool
        var host: String
        var port: Int
        var address: NetworkAddress
    }

    let tls: TLSConfiguration
    let timeout: Duration
    let capacity: Int
    private var clients: [Key: HTTPClient] = [:]
    private var order: [Key] = []
    private var closed = false

    init(tls: TLSConfiguration, timeout: Duration, capacity: Int) {
        self.tls = tls
        self.timeout = timeout
        self.capacity = capacity
    }

    func client(for url: WebhookURL, at address: NetworkAddress) async -> HTTPClient {
        let key = Key(scheme: url.isSecure, host: url.host, port: url.port, address: address)
        if let client = clients[key] {
            order.removeAll { $0 == key }
            order.append(key)
            return client
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(timeout), read: TimeAmount(timeout)))
        if NetworkAddress(url.host) == nil { configuration.dnsOverride = [url.host: address.description] }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        clients[key] = client
        order.append(key)
        while order.count > capacity {
            let oldest = order.removeFirst()
            if let evicted = clients.removeValue(forKey: oldest) { try? await evicted.shutdown() }
        }
        return client
    }

    func shutdown() async {
        let all = Array(clients.values)
        clients = [:]
        order = []
        for client in all { try? await client.shutdown() }
    }
}

extension TimeAmount {
    fileprivate init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
