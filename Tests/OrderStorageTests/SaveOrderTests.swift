import Foundation
import OrderPackage
import OrderStorage
import StorageContract
import Testing

@Suite("saveOrder: every branch of the versioning rule")
struct SaveOrderTests {
    @Test("a new order is added, stored byte for byte with its facts")
    func added() async throws {
        let (store, _, _) = try OrderFixtures.store()
        let archive = try OrderFixtures.archive(updatedAt: "2026-01-15T09:30:00.125Z")
        #expect(try await store.saveOrder(signedArchive: archive) == .added)
        let id = OrderFixtures.identifier()
        #expect(try await store.archive(id) == archive)
        let stored = try #require(try await store.order(id))
        #expect(stored.updatedAt.text == "2026-01-15T09:30:00.125Z")
        #expect(stored.createdAt.text == "2026-01-01T00:00:00Z")
        #expect(stored.status == "open")
        #expect(stored.teamIdentifier == "ABCDE12345")
        #expect(stored.merchantIdentifier == "merchant.com.example.shop")
        #expect(stored.merchantDisplayName == "Example Shop")
        #expect(stored.archiveSize == archive.count)
        #expect(stored.addedAt == OrderFixtures.now)
        #expect(stored.replacedAt == nil)
        #expect(try await store.decodedOrder(id)?.orderIdentifier == "ORDER-1")
    }

    @Test("a newer version replaces the stored one, which moves to the history")
    func newerReplaces() async throws {
        let (store, _, _) = try OrderFixtures.store()
        let first = try OrderFixtures.archive(updatedAt: "2026-01-15T09:30:00Z")
        let second = try OrderFixtures.archive(updatedAt: "2026-01-16T09:30:00Z", status: "completed")
        #expect(try await store.saveOrder(signedArchive: first) == .added)
        #expect(try await store.saveOrder(signedArchive: second) == .added)
        let id = OrderFixtures.identifier()
        #expect(try await store.archive(id) == second)
        let history = try await store.history(id)
        #expect(history.map(\.updatedAt.text) == ["2026-01-15T09:30:00Z", "2026-01-16T09:30:00Z"])
        #expect(history.map(\.status) == ["open", "completed"])
        #expect(history[0].replacedAt == OrderFixtures.now)
        #expect(history[1].replacedAt == nil)
    }

    @Test("an older version is refused with newerExisting and nothing changes")
    func olderRefused() async throws {
        let (store, _, _) = try OrderFixtures.store()
        let newer = try OrderFixtures.archive(updatedAt: "2026-01-16T09:30:00Z")
        let older = try OrderFixtures.archive(updatedAt: "2026-01-15T09:30:00Z")
        #expect(try await store.saveOrder(signedArchive: newer) == .added)
        #expect(try await store.saveOrder(signedArchive: older) == .newerExisting)
        #expect(try await store.archive(OrderFixtures.identifier()) == newer)
        #expect(try await store.history(OrderFixtures.identifier()).count == 1)
    }

    @Test("re-saving the same bytes is idempotent: added, no new row")
    func idempotent() async throws {
        let (store, _, _) = try OrderFixtures.store()
        let archive = try OrderFixtures.archive()
        #expect(try await store.saveOrder(signedArchive: archive) == .added)
        #expect(try await store.saveOrder(signedArchive: archive) == .added)
        #expect(try await store.history(OrderFixtures.identifier()).count == 1)
    }

    @Test("the same updatedAt with different bytes is a conflict; the stored version stays")
    func conflict() async throws {
        let (store, _, _) = try OrderFixtures.store()
        let original = try OrderFixtures.archive(status: "open")
        let edited = try OrderFixtures.archive(status: "completed")
        #expect(try await store.saveOrder(signedArchive: original) == .added)
        await #expect {
            try await store.saveOrder(signedArchive: edited)
        } throws: { error in
            (error as? OrderStoreError)?.code == "store.conflictingVersion"
        }
        #expect(try await store.archive(OrderFixtures.identifier()) == original)
    }

    @Test("an update signed by another team is refused, newer or older")
    func signerChanged() async throws {
        let (store, _, _) = try OrderFixtures.store()
        #expect(try await store.saveOrder(signedArchive: try OrderFixtures.archive(updatedAt: "2026-01-15T09:30:00Z")) == .added)
        for updatedAt in ["2026-01-16T09:30:00Z", "2026-01-14T09:30:00Z"] {
            let takeover = try OrderFixtures.archive(updatedAt: updatedAt, signer: "other-team")
            await #expect {
                try await store.saveOrder(signedArchive: takeover)
            } throws: { error in
                guard case .signerChanged(_, let stored, let incoming)? = error as? OrderStoreError else { return false }
                return stored == "ABCDE12345" && incoming == "ZYXWV98765"
            }
        }
        #expect(try await store.order(OrderFixtures.identifier())?.teamIdentifier == "ABCDE12345")
        // Another team's order with its own identifier is fine.
        #expect(
            try await store.saveOrder(signedArchive: try OrderFixtures.archive(orderIdentifier: "ORDER-2", signer: "other-team"))
                == .added)
    }

    @Test("an invalid archive throws its report and writes nothing")
    func invalid() async throws {
        let (store, _, _) = try OrderFixtures.store()
        var archive = try OrderFixtures.archive()
        archive[archive.count / 2] ^= 0xFF
        await #expect {
            try await store.saveOrder(signedArchive: archive)
        } throws: { error in
            guard case .invalidArchive(let report)? = error as? OrderStoreError else { return false }
            return !report.isValid && !report.errors.isEmpty
        }
        await #expect {
            try await store.saveOrder(signedArchive: Data("not a zip".utf8))
        } throws: { error in
            guard case .invalidArchive(let report)? = error as? OrderStoreError else { return false }
            return report.errorCodes == [.archiveNotZip]
        }
        #expect(try await store.orders().isEmpty)
    }

    @Test("a declined prompt cancels and writes nothing; the prompt is asked only when saving would write")
    func consent() async throws {
        let consent = ScriptedConsent([false, true])
        let (store, _, _) = try OrderFixtures.store(consent: consent)
        let first = try OrderFixtures.archive(updatedAt: "2026-01-15T09:30:00Z")
        #expect(try await store.saveOrder(signedArchive: first) == .cancelled)
        #expect(try await store.orders().isEmpty)
        #expect(try await store.saveOrder(signedArchive: first) == .added)
        // Identical, older, conflicting: nobody is asked.
        #expect(try await store.saveOrder(signedArchive: first) == .added)
        #expect(
            try await store.saveOrder(signedArchive: try OrderFixtures.archive(updatedAt: "2026-01-14T09:30:00Z"))
                == .newerExisting)
        #expect(await consent.asked == ["2026-01-15T09:30:00Z", "2026-01-15T09:30:00Z"])
    }
}
