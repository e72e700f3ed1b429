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
        try await app.test(.live) { client in
            var conformance = Conformance(client: TestingClient(client: client), fixture: fixture, apiKey: key.token)
            try await conformance.run()
        }
    }

    @Test("the built orders serve process, over loopback; SIGTERM exits 0")
    func builtBinary() async throws {
        let fixture = try await ServiceFixture.make()
        let key = try await fixture.wallet.createAPIKey(name: "test", orderTypes: [ServiceFixture.shopType])
        let server = try ServeProcess.start(store: fixture.storePath)
        let client = LoopbackClient(port: server.port)
        var conformance = Conformance(client: client, fixture: fixture, apiKey: key.token)
        do {
            try await conformance.run()
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
        #expect(server.stop() == 0, "SIGTERM should drain and exit 0: \(server.standardError.suffix(2000))")
    }
}

@Suite("orders serve: starting")
struct ServeStartTests {
    @Test("a port already in use is one line and exit 2, and the running server is untouched")
    func portInUse() async throws {
        let fixture = try await ServiceFixture.make()
        let first = try ServeProcess.start(store: fixture.storePath)
        let (status, message) = try ServeProcess.failing(["--store", fixture.storePath, "--port", String(first.port)])
        #expect(status == 2)
        #expect(message == "orders: cannot listen on 127.0.0.1:\(first.port): Address already in use\n", "\(message)")
        let client = LoopbackClient(port: first.port)
        let health = try await client.send(.get, "/health", headers: [:], body: nil)
        try await client.shutdown()
        #expect(health.status == .ok)
        #expect(first.stop() == 0)
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
    func unusableCredentials(_ options: [String], expected: String) throws {
        let folder = try TemporaryDirectory.make("serve-credentials")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a certificate".utf8).write(to: folder.appendingPathComponent("garbage.pem"))
        let store = folder.appendingPathComponent("new.sqlite").path
        let (status, message) = try ServeProcess.failing(["--store", store, "--port", "0"] + options, in: folder)
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
        let tls = try TestTLS.make()
        let server = try ServeProcess.start(
            store: fixture.storePath,
            arguments: ["--tls-certificate", tls.serverCertificate.path, "--tls-key", tls.serverKey.path])
        #expect(server.firstLine == "listening on https://127.0.0.1:\(server.port)")
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(TestArchiveTable.testRoot.path))
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: configuration))
        let response = try await http.execute(
            HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/health"), timeout: .seconds(30))
        try await http.shutdown()
        #expect(response.status.code == 200)
        #expect(server.stop() == 0)
    }

    @Test("a connection idle past the timeout is closed by the server")
    func idleTimeout() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let app = fixture.service().application(
            host: "127.0.0.1", port: 0, server: OrdersService.server(idleTimeout: .milliseconds(300)))
        try await app.test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            // Send nothing; the server closes the connection: read returns 0 (end of stream).
            let start = ContinuousClock.now
            #expect(connection.isClosedByServer(within: 5), "the server closed the idle connection")
            #expect(ContinuousClock.now - start < .seconds(4))
        }
    }
}
