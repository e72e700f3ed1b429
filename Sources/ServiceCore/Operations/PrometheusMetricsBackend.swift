import CoreMetrics
import Prometheus

/// swift-metrics' factory over a Prometheus registry, writing each metric's `# HELP` line and
/// using its own histogram buckets: ``ServiceMetrics``'s default backend, whose registry
/// `GET /metrics` serves.
///
/// swift-prometheus's own `PrometheusMetricsFactory` writes no help text and one set of buckets
/// for every timer; this one takes both from ``descriptions`` by metric name, so that the
/// service's `/metrics` text is the same whichever API recorded it. A name not described gets no
/// help line and ``defaultDurationBuckets`` or ``defaultValueBuckets``: your own metrics, made
/// with this factory, land on the same page.
public struct PrometheusMetricsBackend: MetricsFactory {
    /// A metric's help text and, for a histogram, its buckets.
    public struct Description: Sendable {
        public var help: String
        public var durationBuckets: [Duration]?

        public init(help: String, durationBuckets: [Duration]? = nil) {
            self.help = help
            self.durationBuckets = durationBuckets
        }
    }

    /// Where the metrics are kept; `emit(into:)` writes the exposition text.
    public let registry: PrometheusCollectorRegistry
    /// By metric name (the swift-metrics label).
    public var descriptions: [String: Description]
    /// swift-prometheus's own defaults (`PrometheusMetricsFactory`'s), unless set.
    public var defaultDurationBuckets: [Duration]
    public var defaultValueBuckets: [Double]

    public init(registry: PrometheusCollectorRegistry, descriptions: [String: Description] = [:]) {
        self.registry = registry
        self.descriptions = descriptions
        let defaults = PrometheusMetricsFactory(registry: registry)
        defaultDurationBuckets = defaults.defaultDurationHistogramBuckets
        defaultValueBuckets = defaults.defaultValueHistogramBuckets
    }

    private func name(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: descriptions[label]?.help ?? "")
    }

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: name(label), labels: dimensions)
    }

    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: name(label), labels: dimensions)
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: name(label), labels: dimensions) }
        return registry.makeValueHistogram(descriptor: name(label), labels: dimensions, buckets: defaultValueBuckets)
    }

    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: name(label), labels: dimensions)
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(
            descriptor: name(label), labels: dimensions,
            buckets: descriptions[label]?.durationBuckets ?? defaultDurationBuckets)
    }

    public func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    public func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    public func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    public func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}
