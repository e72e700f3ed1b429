import Foundation
import Hummingbird
import OrderPackage
import Prometheus
import ServiceCore
import WalletOrders
import WalletPrimitives

/// `GET /health` (the store answers) and `GET /metrics` (Prometheus text format) — the latter
/// only while the metrics go to a Prometheus registry (``ServiceCore/ServiceMetrics/registry``);
/// another backend exports them its own way.
struct OperationalRoutes: Sendable {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore
    let metrics: ServiceMetrics
    /// The store's last good answer, kept for a second.
    let probe = HealthProbe(freshness: .seconds(1))
    /// `{"status":"ok","version":"…"}`, encoded once.
    static let healthy = Response.jsonBytes(["status": "ok", "version": WalletOrdersVersion.current])

    func add(to router: Router<Context>, table: RouteTable) {
        table.add(.get, "health", to: router, use: health)
        if let registry = metrics.registry {
            table.add(.get, "metrics", to: router) { request, context in
                try await exposition(of: registry)
            }
        }
    }

    /// `200 {"status":"ok","version":"…"}` when the store can be read; the store's error (503)
    /// when not. A good answer of the store is trusted for a second (``HealthProbe``).
    @Sendable func health(_ request: Request, context: Context) async throws -> Response {
        try await probe.check { _ = try await wallet.pendingPushCount() }
        return Response.json(status: .ok, encoded: Self.healthy)
    }

    /// The outboxes' depths are read here, at each scrape: nothing reads them with another backend.
    func exposition(of registry: PrometheusCollectorRegistry) async throws -> Response {
        if let depth = try? await wallet.pendingPushCount() {
            metrics.setOutboxDepth(depth)
        }
        if let depth = try? await wallet.pendingDeliveryCount() {
            metrics.setDeliveryOutboxDepth(depth)
        }
        if let expiries = try? await wallet.signingCertificateExpiries() {
            for (type, certificates) in expiries {
                // The earliest of each role: what runs out first.
                for role in CertificateExpiry.Role.allCases {
                    guard let first = certificates.filter({ $0.role == role }).map(\.notAfter).min() else { continue }
                    metrics.setCertificateExpiry(orderType: type, role: role.rawValue, notAfter: first)
                }
            }
        }
        metrics.updateLogDrops(from: .standardError)
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: buffer)))
    }
}
