import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MetricsTestKit
import OrdersService
import Prometheus
import ServiceCore
import Testing

/// The service records through swift-metrics (docs/deployment.md, "Metrics and traces"):
/// Prometheus by default, its `/metrics` text what it was before swift-metrics carried it; any
/// other backend by its factory.
@Suite("Metrics through swift-metrics: Prometheus by default, any backend by its factory")
struct MetricsBackendTests {
    /// The same events, recorded through the Prometheus registry directly before this change:
    /// the exposition text it wrote, line for line (families in the registry's order, which is
    /// a dictionary's, hence compared as sorted lines).
    static let textBefore = #"""
        # HELP orders_http_requests_total HTTP requests answered, by route template, method and status.
        # TYPE orders_http_requests_total counter
        orders_http_requests_total{route="unmatched",method="GET",status="404"} 1
        orders_http_requests_total{route="/health",method="GET",status="200"} 2
        # HELP orders_delivery_outbox_depth Background deliveries decided and not yet acknowledged.
        # TYPE orders_delivery_outbox_depth gauge
        orders_delivery_outbox_depth 1.0
        # HELP orders_http_request_duration_seconds Time to answer an HTTP request, by route template and method.
        # TYPE orders_http_request_duration_seconds histogram
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="0.0005"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="0.001"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="0.002"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="0.005"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="0.01"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="0.025"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="0.05"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="0.1"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="0.25"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="0.5"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="1.0"} 0
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="5.0"} 1
        orders_http_request_duration_seconds_bucket{route="unmatched",method="GET",le="+Inf"} 1
        orders_http_request_duration_seconds_sum{route="unmatched",method="GET"} 2.0
        orders_http_request_duration_seconds_count{route="unmatched",method="GET"} 1
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="0.0005"} 0
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="0.001"} 1
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="0.002"} 1
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="0.005"} 2
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="0.01"} 2
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="0.025"} 2
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="0.05"} 2
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="0.1"} 2
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="0.25"} 2
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="0.5"} 2
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="1.0"} 2
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="5.0"} 2
        orders_http_request_duration_seconds_bucket{route="/health",method="GET",le="+Inf"} 2
        orders_http_request_duration_seconds_sum{route="/health",method="GET"} 0.0037
        orders_http_request_duration_seconds_count{route="/health",method="GET"} 2
        # HELP orders_rate_limited_total Requests over a rate limit, by route.
        # TYPE orders_rate_limited_total counter
        orders_rate_limited_total{route="/v1/log"} 2
        # HELP orders_log_dropped_lines_total Log lines dropped because standard error did not keep up.
        # TYPE orders_log_dropped_lines_total counter
        orders_log_dropped_lines_total 0
        # HELP orders_push_outbox_depth Pushes waiting in the outbox (claimed or not).
        # TYPE orders_push_outbox_depth gauge
        orders_push_outbox_depth 3.0
        # HELP orders_delivery_attempts_total Background delivery attempts, by outcome.
        # TYPE orders_delivery_attempts_total counter
        orders_delivery_attempts_total{outcome="retry"} 1
        # HELP orders_push_attempts_total APNs push attempts, by outcome.
        # TYPE orders_push_attempts_total counter
        orders_push_attempts_total{outcome="delivered"} 2
        """#

    @Test("the default backend writes the /metrics text the registry wrote before, help lines and buckets included")
    func prometheusTextUnchanged() throws {
        let metrics = ServiceMetrics()
        metrics.setOutboxDepth(3)
        metrics.setDeliveryOutboxDepth(1)
        metrics.recordRateLimited(route: "/v1/log")
        metrics.recordRateLimited(route: "/v1/log")
        metrics.recordRequest(route: "/health", method: "GET", status: 200, duration: .milliseconds(3))
        metrics.recordRequest(route: "/health", method: "GET", status: 200, duration: .microseconds(700))
        metrics.recordRequest(route: "unmatched", method: "GET", status: 404, duration: .seconds(2))
        metrics.recordPush(outcome: "delivered")
        metrics.recordPush(outcome: "delivered")
        metrics.recordDelivery(outcome: "retry")
        let text = try #require(metrics.registry).emitToString()
        #expect(text.split(separator: "\n").sorted() == Self.textBefore.split(separator: "\n").sorted())
    }

    @Test("another backend by its factory: the service's requests reach it, and /metrics is not served")
    func anotherBackend() async throws {
        let backend = TestMetrics()
        let fixture = try await ServiceFixture.make()
        var logger = Logger(label: "test.serve")
        logger.logLevel = .error
        let service = OrdersService(
            wallet: fixture.wallet, configuration: .init(metrics: ServiceMetrics(factory: backend), logger: logger))
        #expect(service.configuration.metrics.registry == nil)
        try await service.application(host: "127.0.0.1", port: 0).test(.router) { client in
            let health = try await client.executeRequest(uri: "/health", method: .get, headers: [:], body: nil)
            #expect(health.status == .ok)
            let metrics = try await client.executeRequest(uri: "/metrics", method: .get, headers: [:], body: nil)
            #expect(metrics.status == .notFound)
        }
        let health = try backend.expectCounter(
            "orders_http_requests_total", [("route", "/health"), ("method", "GET"), ("status", "200")])
        #expect(health.totalValue == 1)
        let refused = backend.counters.filter {
            $0.label == "orders_http_requests_total" && $0.dimensions.contains { $0 == ("status", "404") }
        }
        #expect(refused.map(\.totalValue) == [1], "/metrics answered 404 and was counted")
        let timer = try backend.expectTimer(
            "orders_http_request_duration_seconds", [("route", "/health"), ("method", "GET")])
        #expect(timer.values.count == 1 && timer.values[0] > 0)
    }
}
