import Foundation
import Hummingbird
import Logging
import WalletOutbox
import OrdersService
import WalletOrders
import WalletPostgres
import WalletWire

/// A shop's backend: Apple's Orders web service and the merchant API from wallet-orders, and two
/// routes of its own beside them — its order system saves a signed order, and its customer pages
/// ask whether one is stored.
///
/// - `ORDERS_DATABASE`: a PostgreSQL URL; without it, an SQLite store at `SHOP_STORE`
///   (default `shop.sqlite`).
/// - `SHOP_TRUST_ROOT`: a PEM root trusted beside Apple's (a test PKI).
/// - `SHOP_PORT`: the port (default 8080; 0 picks one). The first line printed is
///   `listening on http://127.0.0.1:PORT`.
@main
struct ShopBackend {
    static func main() async throws {
        let environment = ProcessInfo.processInfo.environment
        let logger = Logger(label: "shop")

        // Apple's roots, plus the shop's test root when given.
        var trust = TrustStore.apple
        if let root = environment["SHOP_TRUST_ROOT"] {
            trust = try trust.adding(roots: [try Data(contentsOf: URL(fileURLWithPath: root))])
        }
        let configuration = WalletConfiguration(verifier: OrderVerifier(trustStore: trust), logger: logger)

        // PostgreSQL when ORDERS_DATABASE is set (several instances may share it), else SQLite.
        let wallet: WalletStore
        if let url = environment["ORDERS_DATABASE"], !url.isEmpty {
            let backend = try await PostgresBackend.open(try PostgresDatabaseURL(url))
            wallet = WalletStore(backend: backend, configuration: configuration)
        } else {
            wallet = try WalletStore(path: environment["SHOP_STORE"] ?? "shop.sqlite", configuration: configuration)
        }

        let service = OrdersService(wallet: wallet, configuration: .init(basePath: "/wallet", logger: logger))
        let pushes = OutboxDrainer(
            outbox: wallet.outboxes.pushes, registrations: wallet.outboxes.registrations,
            sender: RecordingPushSender(logger: logger), logger: logger)
        let port = Int(environment["SHOP_PORT"] ?? "") ?? 8080
        let app = service.application(
            host: "127.0.0.1", port: port, services: [pushes],
            onServerRunning: { port in
                // Unbuffered, for whoever waits for it on a pipe or in a file.
                FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(port)\n".utf8))
            },
            routes: { router in ShopRoutes(wallet: wallet).add(to: router) })
        try await app.runService()
    }
}

/// The shop's own routes, answering errors as the service does: one table from error categories
/// to statuses (``OrdersService/HTTPStatusTable``) and one error body (`WireError`).
struct ShopRoutes: Sendable {
    let wallet: WalletStore

    func add(to router: Router<OrdersRequestContext>) {
        router.put("/shop/orders") { request, _ -> Response in
            let archive = try await request.body.collect(upTo: 10 << 20)
            do {
                let result = try await wallet.orders.saveOrder(signedArchive: Data(buffer: archive))
                return Self.json(.ok, ["result": result.rawValue])
            } catch let error as OrderStoreError {
                return Self.json(HTTPStatusTable.status(of: error), WireError(error))
            }
        }
        router.get("/shop/orders/{type}/{id}") { _, context -> Response in
            let identifier = FullyQualifiedOrderIdentifier(
                orderTypeIdentifier: try context.parameters.require("type"),
                orderIdentifier: try context.parameters.require("id"))
            let state = try await wallet.orders.containsOrder(matching: identifier)
            return Self.json(state == .notFound ? .notFound : .ok, ["result": state.rawValue])
        }
    }

    static func json(_ status: HTTPResponse.Status, _ body: some Encodable) -> Response {
        let bytes = (try? WireFormat.encode(body)) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
