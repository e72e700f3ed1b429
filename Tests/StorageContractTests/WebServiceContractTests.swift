import Foundation
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
import WalletCore
import WalletPrimitives

/// What the Orders web service needs from every backend: tokens per version, registrations, the
/// change tag, and a push outbox written with the versions it announces.
@Suite("Contract: registrations, change tags and the push outbox")
struct WebServiceContractTests {
    static let device = "device-A"

    @Test(
        "a new registration past a cap is refused, writing nothing; an existing one is always updated",
        arguments: BackendFactory.all)
    func registrationLimits(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let registrations = backend.registrations
        let limits = RegistrationLimits(devicesPerOrder: 3, ordersPerDevice: 2)
        let order = OrderFixtures.identifier("capped")
        for device in ["d1", "d2", "d3"] {
            let registration = OrderRegistration(deviceIdentifier: device, pushToken: "t-\(device)", order: order)
            #expect(try await registrations.register(registration, at: OrderFixtures.now, limits: limits) == .created)
        }
        do {
            _ = try await registrations.register(
                OrderRegistration(deviceIdentifier: "d4", pushToken: "t", order: order), at: OrderFixtures.now, limits: limits)
            Issue.record("a fourth device was registered")
        } catch {
            guard let error = error as? OrderStoreError, case .registrationLimit(.devicesPerOrder(limit: 3)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(error.code == "store.registrationLimit" && error.category == .conflict)
        }
        // The device not written: it has nothing to hear about and nothing to unregister.
        #expect(try await registrations.unregister(deviceIdentifier: "d4", order: order) == false)
        // An existing registration takes a new token whatever the counts.
        #expect(
            try await registrations.register(
                OrderRegistration(deviceIdentifier: "d1", pushToken: "new", order: order), at: OrderFixtures.now, limits: limits)
                == .updated)
        // Orders per device: d1 holds one; a second is the limit, a third refused.
        #expect(
            try await registrations.register(
                OrderRegistration(deviceIdentifier: "d1", pushToken: "t", order: OrderFixtures.identifier("second")),
                at: OrderFixtures.now, limits: limits) == .created)
        do {
            _ = try await registrations.register(
                OrderRegistration(deviceIdentifier: "d1", pushToken: "t", order: OrderFixtures.identifier("third")),
                at: OrderFixtures.now, limits: limits)
            Issue.record("a third order for d1 was registered")
        } catch {
            guard case .registrationLimit(.ordersPerDevice(limit: 2))? = error as? OrderStoreError else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test(
        "a stored version keeps order.json's authenticationToken, archive and digest for serving", arguments: BackendFactory.all)
    func servedOrder(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        let archive = try OrderFixtures.archive()
        _ = try await store.saveOrder(signedArchive: archive)
        let served = try #require(try await backend.orders.servedOrder(OrderFixtures.identifier()))
        #expect(served.authenticationToken == "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b")
        #expect(served.archive == archive)
        #expect(served.updatedAt.text == "2026-01-15T09:30:00Z")
        #expect(served.archiveSHA256.count == 64)
        #expect(try await backend.orders.servedOrder(OrderFixtures.identifier("nope")) == nil)
        // The facts alone: the same version, no archive.
        let facts = try #require(try await backend.orders.servedOrder(OrderFixtures.identifier(), includingArchive: false))
        #expect(facts.archive == nil)
        #expect(facts.archiveSHA256 == served.archiveSHA256 && facts.authenticationToken == served.authenticationToken)
        #expect(facts.updatedAt == served.updatedAt)
    }

    @Test("lookUpServedOrder carries the restriction of orders, with or without the order", arguments: BackendFactory.all)
    func servedOrderLookup(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        _ = try await OrderFixtures.store(on: backend).saveOrder(signedArchive: try OrderFixtures.archive())
        let stored = try await backend.orders.lookUpServedOrder(OrderFixtures.identifier(), includingArchive: false)
        #expect(stored.restrictedSince == nil && stored.order?.archive == nil && stored.order != nil)
        let time = Date(timeIntervalSince1970: 1_790_000_000)
        try await backend.access.setRestricted(.orders, true, at: time)
        let restricted = try await backend.orders.lookUpServedOrder(OrderFixtures.identifier(), includingArchive: true)
        let archive = try OrderFixtures.archive()
        #expect(restricted.restrictedSince == time && restricted.order?.archive == archive)
        let unknown = try await backend.orders.lookUpServedOrder(OrderFixtures.identifier("nope"), includingArchive: true)
        #expect(unknown == ServedOrderLookup(restrictedSince: time, order: nil))
        // An identifier the store cannot hold is not found, and the restriction still reads.
        let inexact = try await backend.orders.lookUpServedOrder(OrderFixtures.identifier("nope\u{0}"), includingArchive: false)
        #expect(inexact == ServedOrderLookup(restrictedSince: time, order: nil))
        try await backend.access.setRestricted(.financialData, true, at: time)
        try await backend.access.setRestricted(.orders, false, at: time)
        #expect(
            try await backend.orders.lookUpServedOrder(OrderFixtures.identifier(), includingArchive: false).restrictedSince == nil
        )
    }

    @Test(
        "the served lookup finds each stored order, and none beside, before or after the stored ones (issue 52, item 12)",
        arguments: BackendFactory.all)
    func servedLookupNeighbours(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        let stored = ["B", "D", "D-1", "F"]
        for identifier in stored {
            _ = try await store.saveOrder(signedArchive: try OrderFixtures.archive(orderIdentifier: identifier))
        }
        for identifier in stored {
            let lookup = try await backend.orders.lookUpServedOrder(OrderFixtures.identifier(identifier), includingArchive: false)
            let order = try #require(lookup.order, "\(identifier) is stored")
            #expect(order.identifier == OrderFixtures.identifier(identifier))
            #expect(order.authenticationToken == "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b" && order.archiveSHA256.count == 64)
            let current = try #require(try await backend.orders.servedOrder(OrderFixtures.identifier(identifier)))
            #expect(order.archiveSHA256 == current.archiveSHA256, "its own version, not a neighbour's")
        }
        for identifier in ["A", "C", "D-", "D-0", "D-11", "E", "Z", "\u{10FFFF}", ""] {
            let lookup = try await backend.orders.lookUpServedOrder(OrderFixtures.identifier(identifier), includingArchive: false)
            #expect(lookup.order == nil, "\(identifier.debugDescription) is not stored")
        }
        let otherType = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example.a", orderIdentifier: "B")
        #expect(try await backend.orders.lookUpServedOrder(otherType, includingArchive: false).order == nil)
    }

    @Test("register creates then updates; unregister is idempotent; identifiers are any strings", arguments: BackendFactory.all)
    func registrationLifecycle(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let order = OrderFixtures.identifier("not-a-uuid ✓")
        let registrations = backend.registrations
        let registration = OrderRegistration(deviceIdentifier: Self.device, pushToken: "token-1", order: order)
        #expect(try await registrations.register(registration, at: OrderFixtures.now) == .created)
        var updated = registration
        updated.pushToken = "token-2"
        #expect(try await registrations.register(updated, at: OrderFixtures.now) == .updated)
        #expect(try await registrations.unregister(deviceIdentifier: Self.device, order: order))
        #expect(try await registrations.unregister(deviceIdentifier: Self.device, order: order) == false)
    }

    @Test(
        "a tag read while an earlier change is uncommitted never skips it once it commits", arguments: BackendFactory.all)
    func tagWithOutOfOrderCommits(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        let type = TestOrderArchive.orderTypeIdentifier
        for id in ["A", "B"] {
            _ = try await store.saveOrder(signedArchive: OrderFixtures.archive(orderIdentifier: id))
            _ = try await backend.registrations.register(
                OrderRegistration(deviceIdentifier: Self.device, pushToken: "t", order: OrderFixtures.identifier(id)),
                at: OrderFixtures.now)
        }
        let start = try #require(
            try await backend.registrations.registeredOrders(
                deviceIdentifier: Self.device, orderTypeIdentifier: type, changedAfter: nil)
        ).lastModified
        func newer(_ id: String) throws -> OrderCandidate {
            try store.prepared(signedArchive: OrderFixtures.archive(orderIdentifier: id, updatedAt: "2026-01-16T00:00:00Z"))
                .candidate
        }
        let (a, b) = (try newer("A"), try newer("B"))
        // A's change is numbered first and held uncommitted; B's is saved meanwhile, and a device
        // asks while A is still open: whatever tag it is given must not pass A's number.
        let seen = try await backend.withTransaction { transaction in
            #expect(try await transaction.orders.save(a, at: OrderFixtures.now) == .replace)
            let other = RacingWrite { try await backend.orders.save(b, at: OrderFixtures.now) }
            try await other.waitUntilBlockedOrDone(on: backend)
            let seen = try await backend.registrations.registeredOrders(
                deviceIdentifier: Self.device, orderTypeIdentifier: type, changedAfter: start)
            return (seen, other)
        }
        #expect(try await seen.1.value == .replace)
        let tag = seen.0?.lastModified ?? start
        let after = try await backend.registrations.registeredOrders(
            deviceIdentifier: Self.device, orderTypeIdentifier: type, changedAfter: tag)
        let heard = Set((seen.0?.orderIdentifiers ?? []) + (after?.orderIdentifiers ?? []))
        #expect(heard == ["A", "B"], "told \(seen.0?.orderIdentifiers ?? []) at first, then \(after?.orderIdentifiers ?? [])")
    }

    @Test("the device hears about its orders changed after its tag, never skipping one", arguments: BackendFactory.all)
    func changeTags(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        let registrations = backend.registrations
        let type = TestOrderArchive.orderTypeIdentifier
        for id in ["A", "B", "C"] {
            _ = try await store.saveOrder(signedArchive: OrderFixtures.archive(orderIdentifier: id))
        }
        for id in ["A", "B"] {
            let registration = OrderRegistration(
                deviceIdentifier: Self.device, pushToken: "t", order: OrderFixtures.identifier(id))
            _ = try await registrations.register(registration, at: OrderFixtures.now)
        }
        let all = try #require(
            try await registrations.registeredOrders(deviceIdentifier: Self.device, orderTypeIdentifier: type, changedAfter: nil))
        #expect(all.orderIdentifiers == ["A", "B"])  // C is not registered
        #expect(
            try await registrations.registeredOrders(
                deviceIdentifier: Self.device, orderTypeIdentifier: type, changedAfter: all.lastModified) == nil)
        #expect(
            try await registrations.registeredOrders(deviceIdentifier: "unknown", orderTypeIdentifier: type, changedAfter: nil)
                == nil)
        #expect(
            try await registrations.registeredOrders(
                deviceIdentifier: Self.device, orderTypeIdentifier: "order.other", changedAfter: nil) == nil)

        // Changes to C, then B, then A: each tag sees exactly what came after it.
        var tag = all.lastModified
        for (id, day) in [("C", 16), ("B", 17), ("A", 18)] {
            _ = try await store.saveOrder(
                signedArchive: OrderFixtures.archive(orderIdentifier: id, updatedAt: "2026-01-\(day)T09:30:00Z"))
            let changes = try await registrations.registeredOrders(
                deviceIdentifier: Self.device, orderTypeIdentifier: type, changedAfter: tag)
            if id == "C" {
                #expect(changes == nil)
            } else {
                #expect(changes?.orderIdentifiers == [id])
                #expect(try #require(changes).lastModified > tag)
                tag = try #require(changes).lastModified
            }
        }
        // A tag a device made up, or a stale one, lists everything changed since.
        #expect(OrderChangeTag(text: "-1") == nil && OrderChangeTag(text: "12a") == nil && OrderChangeTag(text: " 1") == nil)
        #expect(OrderChangeTag(text: "0")?.sequence == 0)
        let fromZero = try await registrations.registeredOrders(
            deviceIdentifier: Self.device, orderTypeIdentifier: type, changedAfter: OrderChangeTag(sequence: 0))
        #expect(fromZero?.orderIdentifiers == ["B", "A"])
    }

    @Test(
        "a replaced version owes each registered device one push; claims lease, retry and complete", arguments: BackendFactory.all
    )
    func outbox(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        let outbox = backend.pushOutbox
        let order = OrderFixtures.identifier()
        _ = try await store.saveOrder(signedArchive: OrderFixtures.archive())
        for (device, token) in [("device-A", "token-A"), ("device-B", "token-B")] {
            _ = try await backend.registrations.register(
                OrderRegistration(deviceIdentifier: device, pushToken: token, order: order), at: OrderFixtures.now)
        }
        // Saving the same version again, or an older one, announces nothing.
        _ = try await store.saveOrder(signedArchive: OrderFixtures.archive())
        _ = try await store.saveOrder(signedArchive: OrderFixtures.archive(updatedAt: "2026-01-14T09:30:00Z"))
        #expect(try await outbox.pendingPushCount() == 0)
        #expect(try await store.saveOrder(signedArchive: OrderFixtures.archive(updatedAt: "2026-01-16T09:30:00Z")) == .added)
        #expect(try await outbox.pendingPushCount() == 2)

        let now = OrderFixtures.now.addingTimeInterval(1)
        let lease = now.addingTimeInterval(60)
        let claimed = try await outbox.claimPushes(dueAt: now, leaseEnd: lease, limit: 10)
        #expect(Set(claimed.map(\.pushToken)) == ["token-A", "token-B"])
        #expect(claimed.allSatisfy { $0.orderTypeIdentifier == order.orderTypeIdentifier && $0.attempts == 0 })
        // Leased: another drainer sees nothing until the lease ends.
        #expect(try await outbox.claimPushes(dueAt: now, leaseEnd: lease, limit: 10).isEmpty)
        let again = try await outbox.claimPushes(dueAt: lease, leaseEnd: lease.addingTimeInterval(60), limit: 10)
        #expect(again.count == 2)

        try await outbox.completePush(claimed[0], at: lease)
        try await outbox.retryPush(claimed[1].id, at: lease.addingTimeInterval(300), reason: "429 TooManyRequests")
        #expect(try await outbox.pendingPushCount() == 1)
        #expect(try await outbox.claimPushes(dueAt: lease.addingTimeInterval(299), leaseEnd: .distantFuture, limit: 10).isEmpty)
        let retried = try await outbox.claimPushes(dueAt: lease.addingTimeInterval(300), leaseEnd: .distantFuture, limit: 10)
        #expect(retried.map(\.attempts) == [1])

        // A token APNs calls gone loses its registrations; a removed order loses the rest.
        #expect(try await backend.registrations.removeRegistrations(pushToken: "token-A") == 1)
        #expect(try await store.removeOrder(order))
        #expect(try await outbox.pendingPushCount() == 0)
        #expect(
            try await backend.registrations.unregister(deviceIdentifier: "device-B", order: order) == false)
    }

    @Test(
        "three versions while a push waits: one push per device and order type; a version during the send makes it due again (issue 53, item 7)",
        arguments: BackendFactory.all)
    func pushesCoalesce(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        let outbox = backend.pushOutbox
        let order = OrderFixtures.identifier()
        let other = OrderFixtures.identifier("ORDER-2")
        _ = try await store.saveOrder(signedArchive: OrderFixtures.archive())
        _ = try await store.saveOrder(signedArchive: OrderFixtures.archive(orderIdentifier: "ORDER-2"))
        for registered in [order, other] {
            _ = try await backend.registrations.register(
                OrderRegistration(deviceIdentifier: Self.device, pushToken: "token-A", order: registered), at: OrderFixtures.now)
        }
        _ = try await backend.registrations.register(
            OrderRegistration(deviceIdentifier: "device-B", pushToken: "token-B", order: order), at: OrderFixtures.now)
        for day in 16...18 {
            #expect(
                try await store.saveOrder(signedArchive: OrderFixtures.archive(updatedAt: "2026-01-\(day)T09:30:00Z")) == .added)
        }
        // Another order of the same type, for the same device: still the one push (Wallet asks which orders changed).
        _ = try await store.saveOrder(
            signedArchive: OrderFixtures.archive(orderIdentifier: "ORDER-2", updatedAt: "2026-01-16T09:30:00Z"))
        #expect(try await outbox.pendingPushCount() == 2)
        let now = OrderFixtures.now.addingTimeInterval(1)
        let claimed = try await outbox.claimPushes(dueAt: now, leaseEnd: now.addingTimeInterval(60), limit: 10)
        let byDevice = Dictionary(uniqueKeysWithValues: claimed.map { ($0.deviceIdentifier, $0) })
        #expect(byDevice[Self.device]?.coalesced == 3 && byDevice["device-B"]?.coalesced == 2)
        #expect(byDevice[Self.device]?.orderIdentifier == "ORDER-2", "the row names the latest order announced")

        // A version saved while the claimed pushes are being sent: each device is owed another once sent.
        _ = try await store.saveOrder(signedArchive: OrderFixtures.archive(updatedAt: "2026-01-19T09:30:00Z"))
        let sent = now.addingTimeInterval(2)
        for push in claimed { try await outbox.completePush(push, at: sent) }
        let owed = try await outbox.claimPushes(dueAt: sent, leaseEnd: sent.addingTimeInterval(60), limit: 10)
        #expect(Set(owed.map(\.deviceIdentifier)) == [Self.device, "device-B"])
        #expect(owed.allSatisfy { $0.coalesced == 0 && $0.attempts == 0 && $0.enqueuedAt == sent })
        for push in owed { try await outbox.completePush(push, at: sent) }
        #expect(try await outbox.pendingPushCount() == 0)
    }

    @Test("a push is written in the transaction of the save: rolled back with it", arguments: BackendFactory.all)
    func outboxRollsBack(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        let order = OrderFixtures.identifier()
        _ = try await store.saveOrder(signedArchive: OrderFixtures.archive())
        _ = try await backend.registrations.register(
            OrderRegistration(deviceIdentifier: Self.device, pushToken: "t", order: order), at: OrderFixtures.now)
        let newer = try store.prepared(signedArchive: OrderFixtures.archive(updatedAt: "2026-01-16T09:30:00Z")).candidate
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await backend.withTransaction { transaction in
                #expect(try await transaction.orders.save(newer, at: OrderFixtures.now) == .replace)
                throw Abort()
            }
        }
        #expect(try await backend.pushOutbox.pendingPushCount() == 0)
        #expect(try await backend.orders.servedOrder(order)?.updatedAt.text == "2026-01-15T09:30:00Z")
    }

    @Test(
        "the console's view: waiting pushes with their last error, failures kept with the reason, devices, uploaders",
        arguments: BackendFactory.all)
    func operatorView(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        let outbox = backend.pushOutbox
        let order = OrderFixtures.identifier()
        let first = try store.prepared(signedArchive: OrderFixtures.archive())
        _ = try await store.saveOrder(first.uploaded(by: "key-one"))
        #expect(try await backend.registrations.registeredDevices(for: order, limit: 10).count == 0)
        for (offset, device) in ["device-A", "device-B", "device-C"].enumerated() {
            _ = try await backend.registrations.register(
                OrderRegistration(deviceIdentifier: device, pushToken: "0123456789abcdef-\(device)", order: order),
                at: OrderFixtures.now.addingTimeInterval(Double(offset)))
        }
        let devices = try await backend.registrations.registeredDevices(for: order, limit: 2)
        #expect(devices.count == 3 && devices.lastRegisteredAt == OrderFixtures.now.addingTimeInterval(2))
        #expect(devices.devices.map(\.deviceIdentifier) == ["device-C", "device-B"])
        #expect(devices.devices.map(\.pushTokenSuffix) == ["device-C", "device-B"].map { String($0.suffix(8)) })
        // The next version (from another way in) owes three pushes.
        _ = try await store.saveOrder(signedArchive: OrderFixtures.archive(updatedAt: "2026-01-16T09:30:00Z"))
        #expect(try await store.history(order).map(\.uploadedBy) == ["key-one", nil])
        #expect(try await store.order(order)?.uploadedBy == nil)

        let now = OrderFixtures.now.addingTimeInterval(10)
        let claimed = try await outbox.claimPushes(dueAt: now, leaseEnd: now.addingTimeInterval(60), limit: 10)
        #expect(claimed.count == 3)
        try await outbox.retryPush(claimed[0].id, at: now.addingTimeInterval(300), reason: "429 TooManyRequests")
        try await outbox.failPush(claimed[1], reason: "400 BadDeviceToken", at: now)
        // Failing a push another drainer already finished records nothing.
        try await outbox.completePush(claimed[2], at: now)
        try await outbox.failPush(claimed[2], reason: "late", at: now)
        let waiting = try await outbox.waitingPushes(limit: 10)
        #expect(waiting.map(\.push.id) == [claimed[0].id])
        #expect(waiting.first?.lastError == "429 TooManyRequests" && waiting.first?.push.attempts == 1)
        #expect(waiting.first?.nextAttemptAt == now.addingTimeInterval(300))
        let failed = try await outbox.failedPushes(limit: 10)
        #expect(failed.count == 1)
        #expect(failed.first?.reason == "400 BadDeviceToken" && failed.first?.attempts == 1)
        #expect(failed.first?.pushTokenSuffix == String(claimed[1].pushToken.suffix(8)) && failed.first?.failedAt == now)
        #expect(failed.first?.deviceIdentifier == claimed[1].deviceIdentifier)
        #expect(try await outbox.pendingPushCount() == 1)
    }
}
