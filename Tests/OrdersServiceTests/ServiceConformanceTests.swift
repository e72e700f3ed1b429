import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
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
        let second = Process()
        second.executableURL = OrdersBinary.url
        second.arguments = ["serve", "--store", fixture.storePath, "--port", String(first.port)]
        second.environment = OrdersBinary.environment()
        let errors = Pipe()
        second.standardError = errors
        second.standardOutput = FileHandle.nullDevice
        try second.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        second.waitUntilExit()
        #expect(second.terminationStatus == 2)
        #expect(message == "orders: cannot listen on 127.0.0.1:\(first.port): Address already in use\n", "\(message)")
        let client = LoopbackClient(port: first.port)
        let health = try await client.send(.get, "/health", headers: [:], body: nil)
        try await client.shutdown()
        #expect(health.status == .ok)
        #expect(first.stop() == 0)
    }
}
