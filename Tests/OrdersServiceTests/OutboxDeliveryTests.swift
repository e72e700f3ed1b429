import Foundation
import Logging
import OrderStorage
import Synchronization
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders
import WalletOutbox

/// What the drainer does alone is tested in WalletOutboxTests; here, through `orders serve`.
@Suite("The push outbox, delivered by orders serve")
struct OutboxDeliveryTests {
    static func registeredFixture() async throws -> ServiceFixture {
        let fixture = try await ServiceFixture.make()
        let order = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")
        _ = try await fixture.wallet.webService.register(
            deviceIdentifier: "phone", pushToken: ServiceFixture.pushToken, for: order, authenticationToken: ServiceFixture.token)
        return fixture
    }

    /// A drainer whose clock stands still at `now`: what is due does not depend on how fast the
    /// test runs (under a sanitizer, a retry's backoff can pass between two calls).
    static func drainer(_ fixture: ServiceFixture, sender: any PushSender, at now: Date = Date()) -> OutboxDrainer<PushWork> {
        var logger = Logger(label: "test.push")
        logger.logLevel = .critical
        return OutboxDrainer(
            outbox: fixture.wallet.backend.pushOutbox, registrations: fixture.wallet.backend.registrations, sender: sender,
            clock: { now }, logger: logger)
    }

    @Test("a push committed while no server ran is delivered by the next orders serve")
    func deliveredAfterRestart() async throws {
        let fixture = try await Self.registeredFixture()
        // The save commits its outbox row; no process is draining (as if the server died).
        _ = try await fixture.wallet.orders.saveOrder(signedArchive: fixture.shopV2)
        #expect(try await fixture.wallet.backend.pushOutbox.pendingPushCount() == 1)
        let server = try await ServeProcess.start(store: fixture.storePath)
        var pending = 1
        for _ in 0..<500 where pending > 0 {
            try await Task.sleep(for: .milliseconds(20))
            pending = try await fixture.wallet.backend.pushOutbox.pendingPushCount()
        }
        #expect(pending == 0)
        await #expect(server.stop() == 0)
        #expect(server.standardError.contains("would push"), "\(server.standardError.suffix(1000))")
        #expect(server.standardError.contains("apns.topic=\(ServiceFixture.shopType)"))
    }

    @Test("orders serve killed (SIGKILL) right after committing a newer version: the push is delivered exactly once")
    func killedBetweenCommitAndPush() async throws {
        let fixture = try await Self.registeredFixture()
        let key = try await fixture.wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType])
        let first = try await ServeProcess.start(store: fixture.storePath)
        let client = LoopbackClient(port: first.port)
        let put = try await client.send(
            .put, "/api/v1/orders",
            headers: [.authorization: "Bearer \(key.token)", .contentType: "application/vnd.apple.finance.order"],
            body: fixture.shopV2)
        // The drainer polls once a second: the process dies with the push committed, not sent.
        await #expect(first.stop(signal: SIGKILL) == 128 + SIGKILL)
        try await client.shutdown()
        #expect(put.status == .ok)
        let second = try await ServeProcess.start(store: fixture.storePath)
        var pending = try await fixture.wallet.backend.pushOutbox.pendingPushCount()
        // A push the dead process had claimed waits for its lease (60 s) to end.
        for _ in 0..<4500 where pending > 0 {
            try await Task.sleep(for: .milliseconds(20))
            pending = try await fixture.wallet.backend.pushOutbox.pendingPushCount()
        }
        await #expect(second.stop() == 0)
        #expect(pending == 0)
        let pushes = [first.standardError, second.standardError].map { $0.components(separatedBy: "would push").count - 1 }
        #expect(pushes.reduce(0, +) == 1, "delivered exactly once: \(pushes)")
    }
}
