import CoreMetrics
import Foundation
import Prometheus
import Synchronization

/// The service's metrics, through swift-metrics: requests by route, method and status with their
/// durations, push and background-delivery outcomes, and the two outboxes' depths (read from the
/// store at each scrape).
///
/// By default they go to a Prometheus registry of the caller's own (no global metrics system is
/// touched) through ``PrometheusMetricsBackend``, and `GET /metrics` serves it. To send them
/// elsewhere, bootstrap swift-metrics with the backend of your choice and pass its factory:
/// `/metrics` is then not served (404), the backend exports them its way.
///
/// ```swift
/// let metrics = ServiceMetrics()
/// metrics.recordPush(outcome: "delivered")
/// let text = metrics.registry?.emitToString()
///
/// // Or: MetricsSystem.bootstrap(MyBackend()); ServiceMetrics(factory: MetricsSystem.factory)
/// ```
public struct ServiceMetrics: Sendable {
    /// The registry `GET /metrics` serves; nil when the metrics go to another backend.
    public let registry: PrometheusCollectorRegistry?
    private let factory: any MetricsFactory
    private let outboxDepth: CoreMetrics.Gauge
    private let deliveryOutboxDepth: CoreMetrics.Gauge
    private let instruments: RequestInstruments
    private let logDrops: LogDropCounter

    /// Metrics in `registry`, served at `/metrics`.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.init(factory: PrometheusMetricsBackend(registry: registry, descriptions: Self.descriptions))
    }

    /// Metrics through `factory`: `MetricsSystem.factory` once bootstrapped, or any other. A
    /// ``PrometheusMetricsBackend`` (or swift-prometheus's `PrometheusMetricsFactory`) keeps
    /// `/metrics` served from its registry.
    public init(factory: any MetricsFactory) {
        self.factory = factory
        registry =
            (factory as? PrometheusMetricsBackend)?.registry ?? (factory as? PrometheusMetricsFactory)?.registry
        outboxDepth = CoreMetrics.Gauge(label: Name.pushOutboxDepth, factory: factory)
        deliveryOutboxDepth = CoreMetrics.Gauge(label: Name.deliveryOutboxDepth, factory: factory)
        logDrops = LogDropCounter(counter: CoreMetrics.Counter(label: Name.droppedLogLines, factory: factory))
        instruments = RequestInstruments(factory: factory)
    }

    /// The service's metric names (Prometheus's conventions: `orders_` first, the unit last).
    enum Name {
        static let pushOutboxDepth = "orders_push_outbox_depth"
        static let deliveryOutboxDepth = "orders_delivery_outbox_depth"
        static let droppedLogLines = "orders_log_dropped_lines_total"
        static let rateLimited = "orders_rate_limited_total"
        static let requests = "orders_http_requests_total"
        static let requestDuration = "orders_http_request_duration_seconds"
        static let pushAttempts = "orders_push_attempts_total"
        static let coalescedPushes = "orders_pushes_coalesced_total"
        static let certificateExpiry = "orders_signing_certificate_expiry_timestamp_seconds"
        static let deliveryAttempts = "orders_delivery_attempts_total"
        static let trackingEvents = "orders_tracking_events_total"
    }

    /// Each metric's help text (and the request histogram's buckets), for ``PrometheusMetricsBackend``.
    public static let descriptions: [String: PrometheusMetricsBackend.Description] = [
        Name.pushOutboxDepth: .init(help: "Pushes waiting in the outbox (claimed or not)."),
        Name.deliveryOutboxDepth: .init(help: "Background deliveries decided and not yet acknowledged."),
        Name.droppedLogLines: .init(help: "Log lines dropped because standard error did not keep up."),
        Name.rateLimited: .init(help: "Requests over a rate limit, by route."),
        Name.requests: .init(help: "HTTP requests answered, by route template, method and status."),
        Name.requestDuration: .init(
            help: "Time to answer an HTTP request, by route template and method.", durationBuckets: durationBuckets),
        Name.pushAttempts: .init(help: "APNs push attempts, by outcome."),
        Name.certificateExpiry: .init(
            help:
                "When each signing identity's certificate and intermediate stop being valid (Unix time), by order type and role."),
        Name.coalescedPushes: .init(
            help: "Order versions announced by a push already waiting for the device and order type (no push of their own)."),
        Name.deliveryAttempts: .init(help: "Background delivery attempts, by outcome."),
        Name.trackingEvents: .init(
            help:
                "Tracking events received, by provider and outcome (applied, unchanged, older, unmatched, orderClosed, unsupported, duplicate, stale, refused, failed)."
        ),
    ]

    /// Counts a request answered without doing its work because its client (or everybody) is
    /// over a rate: a device log not written, a registration refused with 429.
    public func recordRateLimited(route: String) {
        CoreMetrics.Counter(label: Name.rateLimited, dimensions: [("route", route)], factory: factory).increment()
    }

    /// Brings the dropped-lines counter up to `sink`'s count (read at each scrape).
    package func updateLogDrops(from sink: LogSink) {
        logDrops.update(to: sink.droppedLines)
    }

    package static let durationBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    package func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let (counter, timer) = instruments.forRequest(route: route, method: method, status: status)
        counter.increment()
        let (seconds, attoseconds) = duration.components
        timer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Counts one push attempt's outcome: `delivered`, `retry`, `unregistered` (APNs said the
    /// token is gone), `dropped` (refused for good), or `recorded` (logged: no APNs credentials).
    public func recordPush(outcome: String) {
        CoreMetrics.Counter(label: Name.pushAttempts, dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// Counts versions a delivered push announced beyond its first: pushes saved by coalescing.
    public func recordCoalescedPushes(_ count: Int) {
        CoreMetrics.Counter(label: Name.coalescedPushes, factory: factory).increment(by: count)
    }

    /// Records when a signing identity's certificate (`role`: `certificate`, `intermediate`)
    /// expires, read from the store at each scrape: alert on `… - time() < 30 * 86400`.
    package func setCertificateExpiry(orderType: String, role: String, notAfter: Date) {
        CoreMetrics.Gauge(
            label: Name.certificateExpiry, dimensions: [("order_type", orderType), ("role", role)], factory: factory
        ).record(notAfter.timeIntervalSince1970)
    }

    package func setOutboxDepth(_ depth: Int) {
        outboxDepth.record(depth)
    }

    /// Counts one background delivery's outcome: `delivered`, `retry`, `failed` (refused for
    /// good, or given up), `gone` (410: the endpoint disabled), `paused` (financial data
    /// restricted), `withdrawn` (the client revoked since the claim).
    public func recordDelivery(outcome: String) {
        CoreMetrics.Counter(label: Name.deliveryAttempts, dimensions: [("outcome", outcome)], factory: factory)
            .increment()
    }

    /// Counts one tracking event received by `provider` (`aftership`, `easypost`, `generic`) and
    /// what it came to: a ``OrderStorage``-side outcome (`applied`, `unchanged`, `older`,
    /// `unmatched`, `orderClosed`, `unsupported`, `duplicate`), `stale` (a body signed more than 5
    /// minutes ago), `refused` (every other 401, 400, 404, 413) or `failed` (the service could not
    /// apply it now: 409, 503; the provider retries).
    public func recordTrackingEvent(provider: String, outcome: String) {
        CoreMetrics.Counter(
            label: Name.trackingEvents, dimensions: [("provider", provider), ("outcome", outcome)], factory: factory
        ).increment()
    }

    package func setDeliveryOutboxDepth(_ depth: Int) {
        deliveryOutboxDepth.record(depth)
    }
}

/// The request counter and timer of each route, method and status, made once: making a metric
/// asks the backend (a registry lookup under a lock, the labels built anew), work that would
/// otherwise be on every request's path.
private final class RequestInstruments: Sendable {
    private struct Key: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private let factory: any MetricsFactory
    private let made = Mutex<[Key: (CoreMetrics.Counter, CoreMetrics.Timer)]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func forRequest(route: String, method: String, status: Int) -> (CoreMetrics.Counter, CoreMetrics.Timer) {
        let key = Key(route: route, method: method, status: status)
        return made.withLock { made in
            if let instruments = made[key] { return instruments }
            let counter = CoreMetrics.Counter(
                label: ServiceMetrics.Name.requests,
                dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory)
            let timer = CoreMetrics.Timer(
                label: ServiceMetrics.Name.requestDuration, dimensions: [("route", route), ("method", method)],
                factory: factory)
            made[key] = (counter, timer)
            return (counter, timer)
        }
    }
}

/// The counter of dropped log lines, advanced to the sink's own count at each scrape.
private final class LogDropCounter: Sendable {
    private let counter: CoreMetrics.Counter
    private let reported = Mutex(0)

    package init(counter: CoreMetrics.Counter) {
        self.counter = counter
    }

    package func update(to total: Int) {
        reported.withLock { reported in
            guard total > reported else { return }
            counter.increment(by: Int64(total - reported))
            reported = total
        }
    }
}
