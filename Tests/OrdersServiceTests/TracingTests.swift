import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import Logging
import OrdersService
import StorageContract
import TestArchiveTable
import Testing
import Tracing
import WalletOrders
import WalletPostgres
import WalletSQLite

/// Spans through swift-distributed-tracing with a tracer handed to the service and its store
/// (docs/deployment.md, "Metrics and traces"): one span per request, one per storage call, each
/// storage call a child of the request it serves.
@Suite("Spans: one per request, one per storage call")
struct TracingTests {

    @Test(
        "a request is one server span under the caller's trace; its storage calls are its children, none for a request without one"
    )
    func requestAndStorageSpans() async throws {
        let tracer = InMemoryTracer()
        let fixture = try await ServiceFixture.make()
        let backend = try SQLiteBackend(path: fixture.storePath, options: .init(tracer: tracer))
        let wallet = WalletStore(backend: backend, configuration: fixture.wallet.configuration)
        var logger = Logger(label: "test.serve")
        logger.logLevel = .error
        let service = OrdersService(wallet: wallet, configuration: .init(logger: logger, tracer: tracer))
        let app = service.application(host: "127.0.0.1", port: 0)
        let order = ServiceFixture.path("v1", "orders", ServiceFixture.shopType, "ORDER-1")
        let traceID = try #require(HTTPField.Name(InMemoryTracer.traceIDKey))
        let spanID = try #require(HTTPField.Name(InMemoryTracer.spanIDKey))
        try await app.test(.router) { client in
            for (trace, uri, authorization) in [
                ("order", order, "AppleOrder \(ServiceFixture.token)"), ("health", "/health", ""),
                ("nowhere", "/no/such/route", ""),
            ] {
                var headers: HTTPFields = [traceID: trace, spanID: "caller-\(trace)"]
                if !authorization.isEmpty { headers[.authorization] = authorization }
                _ = try await client.executeRequest(uri: uri, method: .get, headers: headers, body: nil)
            }
        }
        let spans = tracer.finishedSpans
        func request(_ trace: String) throws -> FinishedInMemorySpan {
            let servers = spans.filter { $0.traceID == trace && $0.kind == .server }
            #expect(servers.count == 1, "one span for the request \(trace)")
            return try #require(servers.first)
        }
        func storage(_ trace: String) -> [FinishedInMemorySpan] {
            spans.filter { $0.traceID == trace && $0.kind == .client }
        }

        let get = try request("order")
        #expect(get.parentSpanID == "caller-order", "the caller's span is the request's parent")
        #expect(get.operationName == "GET /v1/orders/{orderTypeIdentifier}/{orderIdentifier}")
        #expect(get.attributes.get("http.route")?.toSpanAttribute() == "/v1/orders/{orderTypeIdentifier}/{orderIdentifier}")
        #expect(get.attributes.get("http.response.status_code")?.toSpanAttribute() == 200)
        let reads = storage("order")
        #expect(!reads.isEmpty, "the order was read from the store")
        for span in reads {
            #expect(span.parentSpanID == get.spanID, "\(span.operationName) is a child of the request")
            #expect(["sqlite read", "sqlite write"].contains(span.operationName))
            #expect(span.attributes.get("db.system.name")?.toSpanAttribute() == "sqlite")
        }

        // /health reads the store once: one storage span.
        let health = try request("health")
        #expect(health.operationName == "GET /health")
        #expect(storage("health").map(\.operationName) == ["sqlite read"])
        #expect(storage("health").first?.parentSpanID == health.spanID)

        // No route: a span for the request, nothing from the store.
        let nowhere = try request("nowhere")
        #expect(nowhere.attributes.get("http.response.status_code")?.toSpanAttribute() == 404)
        #expect(storage("nowhere").isEmpty)
        #expect(spans.count == 3 + reads.count + 1, "no span outside the three requests' traces")
    }

    @Test(
        "an authoring PATCH with an Idempotency-Key is two storage calls — one read, one unit of work — and its retry one (issue 54)",
        arguments: ["sqlite"] + (TestPostgres.url == nil ? [] : ["postgresql"]))
    func authoringStorageCalls(_ backendName: String) async throws {
        let tracer = InMemoryTracer()
        // The API key read by the first request is kept for the test (the suite's load can put
        // more than the default second between requests): its reads are the key's, not authoring's.
        let configuration = WalletConfiguration(
            verifier: try TestOrderArchive.verifier(), apiKeyStaleness: .seconds(3_600), logger: Logger(label: "test"))
        let backend: any StorageBackend
        if backendName == "sqlite" {
            let path = try TemporaryDirectory.make("traced-authoring").appendingPathComponent("orders.sqlite").path
            backend = try SQLiteBackend(path: path, options: .init(tracer: tracer))
        } else {
            backend = try await PostgresBackend.open(try await TestPostgres.newDatabase(), options: .init(tracer: tracer))
        }
        let wallet = WalletStore(backend: backend, configuration: configuration)
        _ = try await wallet.orders.saveOrder(signedArchive: try TestOrderArchive.make())
        try await ServiceFixture.addSigningIdentity(to: wallet)
        let key = try await wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType]).token
        var logger = Logger(label: "test.serve")
        logger.logLevel = .error
        let service = OrdersService(
            wallet: wallet, configuration: .init(logger: logger, publicURL: "https://wallet.example.com", tracer: tracer))
        let traceID = try #require(HTTPField.Name(InMemoryTracer.traceIDKey))
        let spanID = try #require(HTTPField.Name(InMemoryTracer.spanIDKey))
        let idempotencyKey = try #require(HTTPField.Name("Idempotency-Key"))
        let path = "/api/v1/orders/\(ServiceFixture.shopType)/ORDER-1/content"
        let statuses = try await service.application(host: "127.0.0.1", port: 0).test(.router) { client in
            var statuses: [String: HTTPResponse.Status] = [:]
            for trace in ["warm", "patch", "retry"] {
                let response = try await client.executeRequest(
                    uri: path, method: .patch,
                    headers: [
                        traceID: trace, spanID: "caller-\(trace)", .authorization: "Bearer \(key)",
                        .contentType: "application/merge-patch+json", idempotencyKey: trace == "warm" ? "warm" : "patch-1",
                    ],
                    body: ByteBuffer(string: trace == "warm" ? #"{"orderNumber":"N-0"}"# : #"{"orderNumber":"N-1"}"#))
                statuses[trace] = response.status
            }
            return statuses
        }
        try await wallet.close()
        #expect(statuses == ["warm": .ok, "patch": .ok, "retry": .ok])
        let storage = { (trace: String) in
            tracer.finishedSpans.filter { $0.traceID == trace && $0.kind == .client }.map(\.operationName)
        }
        let system = backendName == "sqlite" ? "sqlite" : "postgresql"
        #expect(storage("patch") == ["\(system) read", "\(system) write"])
        #expect(storage("retry") == ["\(system) read"], "a retry is answered from the one read")
    }
}
