import AsyncHTTPClient
import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOSSL
import OrdersService
import TestArchiveTable
import Testing
import WalletOrders

@Suite("orders serve: the documented contract")
struct ServiceConformanceTests {
    @Test("in process, over loopback (HummingbirdTesting live)")
    func inProcess() async throws {
        let fixture = try await ServiceFixture.make()
        let key = try await fixture.wallet.createAPIKey(name: "test", orderTypes: [ServiceFixture.shopType])
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.testLive { client in
            var conformance = Conformance(client: TestingClient(client: client), fixture: fixture, apiKey: key.token)
            try await conformance.run()
        }
    }

    @Test("the built orders serve process, over loopback; SIGTERM exits 0")
    func builtBinary() async throws {
        let fixture = try await ServiceFixture.make()
        let key = try await fixture.wallet.createAPIKey(name: "test", orderTypes: [ServiceFixture.shopType])
        let server = try await ServeProcess.start(store: fixture.storePath)
        let client = LoopbackClient(port: server.port)
        var conformance = Conformance(client: client, fixture: fixture, apiKey: key.token)
        do {
            try await conformance.run()
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
        await #expect(server.stop() == 0, "SIGTERM should drain and exit 0: \(server.standardError.suffix(2000))")
    }

    @Test(
        "a path spelled otherwise than its route — a trailing, doubled or dot segment — is 404 on every route, signed in or not (issue 52, item 11)"
    )
    func oneSpellingPerPath() async throws {
        let fixture = try await ServiceFixture.make()
        try await fixture.wallet.consent.setOwnerPassword("correct horse battery", cost: 4)
        let key = try await fixture.wallet.createAPIKey(name: "test", orderTypes: [ServiceFixture.shopType])
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let cookie = try await ConsolePagesTests.signIn(client)
            let headers: HTTPFields = [.authorization: "Bearer \(key.token)", .cookie: cookie]
            for path in ["/metrics", "/health", "/api/v1/orders", "/console/orders"] {
                let canonical = try await client.executeRequest(uri: path, method: .get, headers: headers, body: nil)
                #expect(canonical.status == .ok, "\(path)")
            }
            for path in [
                "/metrics/", "/metrics//", "/health/", "/api//v1/orders", "/api/v1/orders/", "/console/", "/console//orders",
                "/console/./orders", "/console/orders/../orders", "/finance//settings", "/api/v1/%2e/orders",
            ] {
                let other = try await client.executeRequest(uri: path, method: .get, headers: headers, body: nil)
                #expect(other.status == .notFound, "\(path): \(other.status)")
            }
        }
        // The built binary, and request targets in absolute form, which a client may send.
        let server = try await ServeProcess.start(store: fixture.storePath)
        for target in ["http://127.0.0.1/metrics/", "http://127.0.0.1/api//v1/orders", "http://127.0.0.1/metrics"] {
            let answer = try #require(try RawConnection(port: server.port).exchange("GET", target))
            #expect(answer.status == (target.hasSuffix("/metrics") ? 200 : 404), "\(target): \(answer.status)")
        }
        await #expect(server.stop() == 0)
    }
}

@Suite("OrdersService in your own application")
struct EmbeddingTests {
    @Test("routes added through application(routes:) are served, beside the service's and behind its middleware")
    func ownRoutes() async throws {
        let fixture = try await ServiceFixture.make()
        let app = fixture.service().application(
            host: "127.0.0.1", port: 0,
            routes: { router in
                router.put("/internal/orders") { _, _ in Response(status: .accepted) }
            })
        try await app.test(.router) { client in
            let own = try await client.executeRequest(uri: "/internal/orders", method: .put, headers: [:], body: nil)
            #expect(own.status == .accepted, "the route added is the route served")
            #expect(own.headers[try #require(HTTPField.Name("X-Request-Id"))] != nil, "behind the service's middleware")
            let health = try await client.executeRequest(uri: "/health", method: .get, headers: [:], body: nil)
            #expect(health.status == .ok, "and the service's routes are still there")
        }
    }

    @Test("a router you build and give to addRoutes(to:) serves the service's routes and yours")
    func addRoutesToYourRouter() async throws {
        let fixture = try await ServiceFixture.make()
        let router = Router(context: OrdersRequestContext.self, options: .autoGenerateHeadEndpoints)
        fixture.service().addRoutes(to: router)
        router.get("/internal/ping") { _, _ in "pong" }
        let app = Application(
            router: router, server: OrdersService.server(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.router) { client in
            let ping = try await client.executeRequest(uri: "/internal/ping", method: .get, headers: [:], body: nil)
            #expect(ping.status == .ok && String(buffer: ping.body) == "pong")
            let head = try await client.executeRequest(uri: "/health", method: .head, headers: [:], body: nil)
            #expect(head.status == .ok)
        }
    }
}

@Suite("orders serve: starting")
struct ServeStartTests {
    @Test("a port already in use is one line and exit 2, no store is created, and the running server is untouched")
    func portInUse() async throws {
        let fixture = try await ServiceFixture.make()
        let first = try await ServeProcess.start(store: fixture.storePath)
        let (status, message) = try await ServeProcess.failing(["--store", fixture.storePath, "--port", String(first.port)])
        #expect(status == 2)
        #expect(message == "orders: cannot listen on 127.0.0.1:\(first.port): Address already in use\n", "\(message)")
        let folder = try TemporaryDirectory.make("serve-port-taken")
        let newStore = folder.appendingPathComponent("new/orders.sqlite").path
        let second = try await ServeProcess.failing(["--store", newStore, "--port", String(first.port)])
        #expect(second.status == 2 && second.standardError.hasPrefix("orders: cannot listen on "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing made for a store")
        let client = LoopbackClient(port: first.port)
        let health = try await client.send(.get, "/health", headers: [:], body: nil)
        try await client.shutdown()
        #expect(health.status == .ok)
        await #expect(first.stop() == 0)
    }

    @Test(
        "an unusable credential file is named, exit 2, and no store is created",
        arguments: [
            (["--tls-certificate", "missing.pem", "--tls-key", "missing.key"], "cannot read TLS certificate "),
            (["--push-certificate", "missing.pem", "--push-key", "missing.key"], "cannot read push certificate "),
            (["--push-key-p8", "missing.p8", "--key-id", "K1", "--team-id", "T1"], "cannot read APNs key "),
            (["--tls-certificate", "garbage.pem", "--tls-key", "garbage.pem"], "garbage.pem holds no PEM certificate"),
            (
                [
                    "--tls-certificate", TestArchiveTable.directory.appendingPathComponent("pki/root.pem").path, "--tls-key",
                    "garbage.pem",
                ],
                "garbage.pem holds no PEM private key"
            ),
        ])
    func unusableCredentials(_ options: [String], expected: String) async throws {
        let folder = try TemporaryDirectory.make("serve-credentials")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a certificate".utf8).write(to: folder.appendingPathComponent("garbage.pem"))
        let store = folder.appendingPathComponent("new.sqlite").path
        let (status, message) = try await ServeProcess.failing(["--store", store, "--port", "0"] + options, in: folder)
        #expect(status == 2)
        #expect(
            message.hasPrefix("orders: ") && message.contains(expected) && message.split(separator: "\n").count == 1, "\(message)"
        )
        #expect(!FileManager.default.fileExists(atPath: store), "a failed serve must not create the store")
    }
}

@Suite("orders serve: TLS and idle connections")
struct ServeTransportTests {
    @Test("--tls-certificate/--tls-key serve HTTPS, and say so on the first line")
    func https() async throws {
        let fixture = try await ServiceFixture.make()
        let tls = try await TestTLS.make()
        let server = try await ServeProcess.start(
            store: fixture.storePath,
            arguments: ["--tls-certificate", tls.serverCertificate.path, "--tls-key", tls.serverKey.path])
        #expect(server.firstLine == "listening on https://127.0.0.1:\(server.port)")
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(TestArchiveTable.testRoot.path))
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: configuration))
        let status: UInt
        do {
            status = try await http.execute(
                HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/health"), timeout: .seconds(30)
            ).status.code
        } catch {
            try await http.shutdown()
            throw error
        }
        try await http.shutdown()
        #expect(status == 200)
        await #expect(server.stop() == 0)
    }

    @Test("a connection idle past the timeout is closed by the server")
    func idleTimeout() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let app = fixture.service().application(
            host: "127.0.0.1", port: 0, server: OrdersService.server(idleTimeout: .milliseconds(300)))
        try await app.testLive { client in
            let connection = try RawConnection(port: try #require(client.port))
            // Send nothing; the server closes the connection: read returns 0 (end of stream).
            let start = ContinuousClock.now
            #expect(await connection.isClosedByServer(within: 5), "the server closed the idle connection")
            #expect(ContinuousClock.now - start < .seconds(4))
        }
    }
}

/// What an HTTP client library will not send, on a raw connection to the built binary.
@Suite("orders serve: HTTP/1.1 on the wire")
struct WireConformanceTests {
    @Test(
        "Host: missing or repeated is 400 (RFC 9112 §3.2) with Connection: close, and the connection serves nothing more; present once, served"
    )
    func host() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let server = try await ServeProcess.start(store: fixture.storePath)
        defer { _ = server.stop() }
        for (headers, host, says) in [
            ([String: String](), nil as String?, "is missing"), (["Host": "other.example"], "127.0.0.1", "more than once"),
        ] {
            let connection = try RawConnection(port: server.port)
            let refused = connection.exchange("GET", "/health", headers: headers, host: host)
            #expect(refused?.status == 400 && refused?.text.contains(#""code":"request.invalidHeader""#) == true)
            #expect(refused?.text.contains(says) == true)
            #expect(refused?.headers["connection"] == "close")
            // A request sent after it on the same connection is not served.
            #expect(connection.exchange("GET", "/health") == nil)
            #expect(await connection.isReleasedByServer(within: 6))
        }
        #expect(try RawConnection(port: server.port).exchange("GET", "/health")?.status == 200)
    }

    @Test("a request line or header past the decoder's limits is 400, and the server lets go of the connection")
    func oversizedRequestLine() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let server = try await ServeProcess.start(store: fixture.storePath)
        defer { _ = server.stop() }
        for request in [
            "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + String(repeating: "b", count: 100_000) + "\r\n\r\n",
        ] {
            let connection = try RawConnection(port: server.port)
            connection.send(request)
            await #expect(connection.responseStatus() == 400)
            // Not only half-closed: a client that never closes must not keep the socket.
            #expect(await connection.isReleasedByServer(within: 6))
        }
    }

    @Test("request ids are random: 200 of them share no prefix and follow no sequence")
    func randomRequestIdentifiers() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let server = try await ServeProcess.start(store: fixture.storePath, environment: ["ORDERS_LOG_LEVEL": "error"])
        defer { _ = server.stop() }
        let connection = try RawConnection(port: server.port)
        let identifiers = (0..<200).compactMap { _ in connection.exchange("GET", "/health")?.headers["x-request-id"] }
        #expect(identifiers.count == 200)
        #expect(identifiers.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(identifiers.map { $0.prefix(8) }).count > 190, "ids share prefixes: \(identifiers.prefix(5))")
        let low = identifiers.compactMap { UInt64($0.suffix(16), radix: 16) }
        let steps = zip(low, low.dropFirst()).filter { $1 &- $0 == 1 }.count
        #expect(steps < 5, "\(steps) ids follow their predecessor")
    }
}
