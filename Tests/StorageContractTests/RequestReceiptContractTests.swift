import Foundation
import OrderPackage
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
import WalletCore
import WalletPrimitives

/// Receipts of requests with an `Idempotency-Key` (issue 43): kept in the transaction of the
/// version they answer, on every backend — never one without the other.
@Suite("Contract: request receipts")
struct RequestReceiptContractTests {
    static func receipt(_ key: String, at date: Date = OrderFixtures.now, answer: String = "first") -> RequestReceipt {
        RequestReceipt(
            caller: "0123456789abcdef", idempotencyKey: key, requestDigest: String(repeating: "d", count: 64), status: 201,
            answer: Data(answer.utf8), createdAt: date)
    }

    static func candidate(_ updatedAt: String, in store: OrderStore) throws -> OrderCandidate {
        try store.prepared(signedArchive: OrderFixtures.archive(updatedAt: updatedAt)).candidate
    }

    @Test("a receipt comes back; a second under the same key fails its save and saves nothing", arguments: BackendFactory.all)
    func keptWithTheVersion(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        func candidate(_ updatedAt: String) throws -> OrderCandidate { try Self.candidate(updatedAt, in: store) }
        var first = try candidate("2026-01-15T09:30:00Z")
        first.receipt = Self.receipt("key-1")
        #expect(try await backend.orders.save(first, at: OrderFixtures.now) == .insert)
        let kept = try await backend.orders.receipt(
            caller: "0123456789abcdef", idempotencyKey: "key-1", notBefore: OrderFixtures.now.addingTimeInterval(-60))
        #expect(kept == Self.receipt("key-1"))
        #expect(
            try await backend.orders.receipt(caller: "fedcba9876543210", idempotencyKey: "key-1", notBefore: .distantPast)
                == nil, "another caller's key is another key")

        var second = try candidate("2026-01-16T09:30:00Z")
        second.receipt = Self.receipt("key-1", answer: "second")
        await #expect {
            try await backend.orders.save(second, at: OrderFixtures.now)
        } throws: { error in
            (error as? OrderStoreError)?.code == "store.requestAlreadyAnswered"
        }
        #expect(
            try await backend.orders.currentVersion(of: OrderFixtures.identifier())?.updatedAt.text == "2026-01-15T09:30:00Z",
            "the version of a refused receipt is not saved")
        #expect(try await backend.orders.history(of: OrderFixtures.identifier()).count == 1)
    }

    @Test("a save that keeps the newer version keeps no receipt; receipts older than a day go", arguments: BackendFactory.all)
    func onlyWithAVersion(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        func candidate(_ updatedAt: String) throws -> OrderCandidate { try Self.candidate(updatedAt, in: store) }
        var old = try candidate("2026-01-15T09:30:00Z")
        old.receipt = Self.receipt("old", at: OrderFixtures.now.addingTimeInterval(-2 * RequestReceipt.lifetime))
        #expect(try await backend.orders.save(old, at: OrderFixtures.now) == .insert)
        var older = try candidate("2026-01-14T09:30:00Z")
        older.receipt = Self.receipt("lost")
        #expect(try await backend.orders.save(older, at: OrderFixtures.now) == .keepNewer)
        #expect(
            try await backend.orders.receipt(caller: "0123456789abcdef", idempotencyKey: "lost", notBefore: .distantPast) == nil)

        #expect(
            try await backend.orders.receipt(caller: "0123456789abcdef", idempotencyKey: "old", notBefore: .distantPast) != nil)
        var newer = try candidate("2026-01-16T09:30:00Z")
        newer.receipt = Self.receipt("new")
        #expect(try await backend.orders.save(newer, at: OrderFixtures.now) == .replace)
        #expect(
            try await backend.orders.receipt(caller: "0123456789abcdef", idempotencyKey: "old", notBefore: .distantPast) == nil,
            "removed by the caller's next receipt")
    }
}
