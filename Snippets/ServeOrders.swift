// snippet.hide
// EmbeddingInHummingbird: the whole service, and a route of your own beside it.
import CoreMetrics
import Foundation
// snippet.show
// snippet.service
import Hummingbird
import Logging
import OrdersService
import Tracing
import WalletOrders
import WalletOutbox
import WalletSQLite
import WalletWire

// snippet.hide
func serve() async throws {
    // snippet.show
    let logger = Logger(label: "shop")
    let wallet = try WalletStore(path: "/var/lib/orders/orders.sqlite")
    let service = OrdersService(wallet: wallet, configuration: .init(basePath: "/wallet", logger: logger))
    let pushes = OutboxDrainer(
        outbox: wallet.outboxes.pushes, registrations: wallet.outboxes.registrations,
        sender: RecordingPushSender(logger: logger), logger: logger)
    let app = service.application(
        host: "127.0.0.1", port: 8080, services: [pushes],
        routes: { router in addShopRoutes(to: router, wallet: wallet) })  // served beside the service's
    try await app.runService()  // SIGTERM and SIGINT drain in-flight requests
    // snippet.end
    // snippet.hide
}

// snippet.show
// snippet.route
func addShopRoutes(to router: Router<OrdersRequestContext>, wallet: WalletStore) {
    router.put("/internal/orders") { request, context -> Response in
        let body = try await request.body.collect(upTo: 10 << 20)
        do {
            let result = try await wallet.orders.saveOrder(signedArchive: Data(buffer: body))
            return Response(status: result == .newerExisting ? .conflict : .ok)
        } catch let error as any WalletError {
            let json = try WireFormat.encode(WireError(error))
            return Response(
                status: HTTPStatusTable.status(of: error), headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
        }
    }
}
// snippet.end

// snippet.hide
func serveAsTheToolDoes(certificate: Data, key: Data) async throws {
    // snippet.show
    // snippet.server
    var configuration = OrdersServer.Configuration(host: "0.0.0.0", port: 8443)
    configuration.tls = OrdersServer.TLSCredentials(
        certificateChainPEM: certificate, privateKeyPEM: key, certificateSource: "server.pem", keySource: "server.key")
    configuration.service = OrdersService.Configuration(basePath: "/wallet")
    let server = try OrdersServer(configuration: configuration)  // checks TLS (and APNs) credentials first
    let wallet = try WalletStore(path: "/var/lib/orders/orders.sqlite")
    try await server.run(wallet: wallet) { port in print("listening on \(port)") }
    // snippet.end
    // snippet.hide
}

func observed(tracer: any Tracer, metricsBackend: any MetricsFactory) throws -> OrdersService {
    // snippet.show
    // snippet.observe
    // Spans: the same tracer for the store (a span per storage call) and the service (per request).
    let backend = try SQLiteBackend(path: "/var/lib/orders/orders.sqlite", options: .init(tracer: tracer))
    let wallet = WalletStore(backend: backend, configuration: WalletConfiguration())
    // Metrics: any swift-metrics backend (`MetricsSystem.factory` once bootstrapped); /metrics is
    // then not served. The default, `ServiceMetrics()`, is a Prometheus registry served there.
    let metrics = ServiceMetrics(factory: metricsBackend)
    return OrdersService(wallet: wallet, configuration: .init(metrics: metrics, tracer: tracer))
    // snippet.end
    // snippet.hide
}

func ownApplication(service: OrdersService) -> some ApplicationProtocol {
    // snippet.show
    // snippet.own
    let router = Router(context: OrdersRequestContext.self, options: .autoGenerateHeadEndpoints)
    service.addRoutes(to: router)  // the service's routes and middleware: serve this router
    router.get("/internal/ping") { _, _ in "pong" }
    return Application(router: router, server: OrdersService.server())
    // snippet.end
    // snippet.hide
}
