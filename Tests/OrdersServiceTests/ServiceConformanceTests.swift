import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
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
