import Foundation
import Logging
import OrderStorage
import Synchronization
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders
import WalletOutbox

/// A sender that answers from a script and records what it was asked to send.
final class ScriptedSender: PushSender {
    let answers: Mutex<[PushDelivery]>
    let sent = Mutex<[PendingPush]>([])

    init(_ answers: [PushDelivery]) {
        self.answers = Mutex(answers)
    }

    func send(_ push: PendingPush) async -> PushDelivery {
        sent.withLock { $0.append(push) }
        return answers.withLock { $0.isEmpty ? .delivered : $0.removeFirst() }
    }
}

/// A store holding the test order's first version, with a device registered for it.
struct PushFixture {
    static let shopType = TestOrderArchive.orderTypeIdentifier
    static let token = "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b"
    static let pushToken = String(repeating: "0a1b2c3d", count: 8)

    let wallet: WalletStore
    let shopV2: Data

    static func make() async throws -> PushFixture {
        let directory = try TemporaryDirectory.make("push")
        let configuration = WalletConfiguration(
            verifier: try TestOrderArchive.verifier(), clock: { TestOrderArchive.now }, logger: Logger(label: "test"))
        let wallet = try WalletStore(path: directory.appendingPathComponent("orders.sqlite").path, configuration: configuration)
        _ = try await wallet.orders.saveOrder(signedArchive: try TestOrderArchive.make())
        return PushFixture(wallet: wallet, shopV2: try TestOrderArchive.make(updatedAt: "2026-02-01T08:00:00Z"))
    }
}

@Suite("The outbox drainer")
struct OutboxDrainerTests {
    static func registeredFixture() async throws -> PushFixture {
        let fixture = try await PushFixture.make()
        let order = FullyQualifiedOrderIdentifier(orderTypeIdentifier: PushFixture.shopType, orderIdentifier: "ORDER-1")
        _ = try await fixture.wallet.webService.register(
            deviceIdentifier: "phone", pushToken: PushFixture.pushToken, for: order, authenticationToken: PushFixture.token)
        return fixture
    }

    /// A drainer whose clock stands still at `now`: what is due does not depend on how fast the
    /// test runs (under a sanitizer, a retry's backoff can pass between two calls).
    static func drainer(_ fixture: PushFixture, sender: any PushSender, at now: Date = Date()) -> OutboxDrainer<PushWork> {
        var logger = Logger(label: "test.push")
        logger.logLevel = .critical
        return OutboxDrainer(
            outbox: fixture.wallet.backend.pushOutbox, registrations: fixture.wallet.backend.registrations, sender: sender,
            clock: { now }, logger: logger)
    }

    @Test("a newer version owes one push per registration, with the order type as topic")
    func onePushPerRegistration() async throws {
        let fixture = try await Self.registeredFixture()
        _ = try await fixture.wallet.orders.saveOrder(signedArchive: fixture.shopV2)
        _ = try await fixture.wallet.orders.saveOrder(signedArchive: fixture.shopV2)  // the same version: no push
        let sender = ScriptedSender([])
        #expect(try await Self.drainer(fixture, sender: sender).drainOnce() == 1)
        let sent = sender.sent.withLock { $0 }
        #expect(
            sent.map(\.orderTypeIdentifier) == [PushFixture.shopType] && sent.map(\.pushToken) == [PushFixture.pushToken])
        #expect(try await fixture.wallet.backend.pushOutbox.pendingPushCount() == 0)
    }

    @Test("APNs saying the token is gone removes the registration; a failure is retried later")
    func unregisteredAndRetry() async throws {
        let fixture = try await Self.registeredFixture()
        _ = try await fixture.wallet.orders.saveOrder(signedArchive: fixture.shopV2)
        let retrying = ScriptedSender([.retry(reason: "HTTP 503")])
        let now = Date()
        #expect(try await Self.drainer(fixture, sender: retrying, at: now).drainOnce() == 1)
        #expect(try await fixture.wallet.backend.pushOutbox.pendingPushCount() == 1, "kept for a later attempt")
        #expect(try await Self.drainer(fixture, sender: retrying, at: now).drainOnce() == 0, "not due yet")

        let later = try await PushFixture.make()
        let order = FullyQualifiedOrderIdentifier(orderTypeIdentifier: PushFixture.shopType, orderIdentifier: "ORDER-1")
        _ = try await later.wallet.webService.register(
            deviceIdentifier: "phone", pushToken: PushFixture.pushToken, for: order, authenticationToken: PushFixture.token)
        _ = try await later.wallet.orders.saveOrder(signedArchive: later.shopV2)
        let gone = ScriptedSender([.unregistered(reason: "Unregistered")])
        #expect(try await Self.drainer(later, sender: gone).drainOnce() == 1)
        #expect(try await later.wallet.backend.pushOutbox.pendingPushCount() == 0)
        let changes = try await later.wallet.webService.changedOrders(
            deviceIdentifier: "phone", orderTypeIdentifier: PushFixture.shopType, since: nil)
        #expect(changes == nil, "the registration is gone")
    }
}
