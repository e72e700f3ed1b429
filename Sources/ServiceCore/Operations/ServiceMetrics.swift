import Prometheus
import Synchronization

/// The service's Prometheus metrics, on a registry the caller owns (no global metrics system):
/// requests by route, method and status with their durations, push and background-delivery
/// outcomes, and the two outboxes' depths (read from the store at each scrape).
///
/// ```swift
/// let metrics = ServiceMetrics()
/// metrics.recordPush(outcome: "delivered")
/// let text = metrics.registry.emitToString()
/// ```
public struct ServiceMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    private let outboxDepth: Gauge
    private let deliveryOutboxDepth: Gauge
    private let instruments = RequestInstruments()
    private let logDrops: LogDropCounter

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        outboxDepth = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "orders", subsystem: "push", metricName: "outbox_depth", unitName: "",
                helpText: "Pushes waiting in the outbox (claimed or not)."))
        deliveryOutboxDepth = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "orders", subsystem: "delivery", metricName: "outbox_depth", unitName: "",
                helpText: "Background deliveries decided and not yet acknowledged."))
        logDrops = LogDropCounter(
            counter: registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "orders", subsystem: "log", metricName: "dropped_lines", unitName: "total",
                    helpText: "Log lines dropped because standard error did not keep up.")))
    }

    /// Counts a request answered without doing its work because its client (or everybody) is
    /// over a rate: a device log not written, a registration refused with 429.
    public func recordRateLimited(route: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "orders", metricName: "rate_limited", unitName: "total",
                helpText: "Requests over a rate limit, by route."),
            labels: [("route", route)]
        ).increment()
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
        let (counter, histogram) = instruments.forRequest(route: route, method: method, status: status, in: registry)
        counter.increment()
        histogram.record(duration)
    }

    /// Counts one push attempt's outcome: `delivered`, `retry`, `unregistered` (APNs said the
    /// token is gone), `dropped` (refused for good), or `recorded` (logged: no APNs credentials).
    public func recordPush(outcome: String) {
        countAttempt(of: "push", help: "APNs push attempts, by outcome.", outcome: outcome)
    }

    package func setOutboxDepth(_ depth: Int) {
        outboxDepth.set(Double(depth))
    }

    /// Counts one background delivery's outcome: `delivered`, `retry`, `failed` (refused for
    /// good, or given up), `gone` (410: the endpoint disabled), `paused` (financial data
    /// restricted), `withdrawn` (the client revoked since the claim).
    public func recordDelivery(outcome: String) {
        countAttempt(of: "delivery", help: "Background delivery attempts, by outcome.", outcome: outcome)
    }

    /// `orders_<subsystem>_attempts_total{outcome=…}` (the registry keeps one counter per label).
    private func countAttempt(of subsystem: String, help: String, outcome: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "orders", subsystem: subsystem, metricName: "attempts", unitName: "total", helpText: help),
            labels: [("outcome", outcome)]
        ).increment()
    }

    package func setDeliveryOutboxDepth(_ depth: Int) {
        deliveryOutboxDepth.set(Double(depth))
    }
}

/// The request counter and histogram of each route, method and status, made once: asking the
/// registry builds the metric's name and label key on every call, which is work on every
/// request's path.
private final class RequestInstruments: Sendable {
    private struct Key: Hashable {
        package var route: String
        package var method: String
        package var status: Int
    }

    private let made = Mutex<[Key: (Counter, DurationHistogram)]>([:])

    package func forRequest(
        route: String, method: String, status: Int, in registry: PrometheusCollectorRegistry
    ) -> (Counter, DurationHistogram) {
        let key = Key(route: route, method: method, status: status)
        return made.withLock { made in
            if let instruments = made[key] { return instruments }
            let counter = registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "orders", subsystem: "http", metricName: "requests", unitName: "total",
                    helpText: "HTTP requests answered, by route template, method and status."),
                labels: [("route", route), ("method", method), ("status", String(status))])
            let histogram = registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(
                    namespace: "orders", subsystem: "http", metricName: "request_duration", unitName: "seconds",
                    helpText: "Time to answer an HTTP request, by route template and method."),
                labels: [("route", route), ("method", method)], buckets: ServiceMetrics.durationBuckets)
            made[key] = (counter, histogram)
            return (counter, histogram)
        }
    }
}

/// The counter of dropped log lines, advanced to the sink's own count at each scrape.
private final class LogDropCounter: Sendable {
    private let counter: Counter
    private let reported = Mutex(0)

    package init(counter: Counter) {
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
