import Foundation
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
import WalletCore
import WalletStorage

/// One unit of work spanning repositories: all of it commits, or none of it.
@Suite("Contract: units of work across orders and access")
struct TransactionContractTests {
    struct Abandon: Error {}

    static let client: ClientIdentifier = "com.example.shop"

    @Test("an order saved and a client entitled in one unit of work commit together", arguments: BackendFactory.all)
    func commits(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let candidate = try OrderFixtures.store(on: backend).prepared(signedArchive: OrderFixtures.archive()).candidate
        let decision = try await backend.withTransaction { transaction in
            let decision = try await transaction.orders.save(candidate, at: OrderFixtures.now)
            try await transaction.access.entitle(Self.client, toOrderTypes: [candidate.identifier.orderTypeIdentifier])
            // Reads inside see the unit's own writes.
            #expect(try await transaction.orders.currentVersion(of: candidate.identifier) != nil)
            #expect(try await transaction.access.access(for: Self.client).orderTypeIdentifiers.count == 1)
            return decision
        }
        #expect(decision == .insert)
        #expect(try await backend.orders.currentVersion(of: candidate.identifier) != nil)
        #expect(
            try await backend.access.access(for: Self.client).orderTypeIdentifiers == [candidate.identifier.orderTypeIdentifier])
    }

    @Test("when the body throws, neither the order nor the entitlement is kept", arguments: BackendFactory.all)
    func rollsBack(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let candidate = try OrderFixtures.store(on: backend).prepared(signedArchive: OrderFixtures.archive()).candidate
        await #expect(throws: Abandon.self) {
            try await backend.withTransaction { transaction in
                _ = try await transaction.orders.save(candidate, at: OrderFixtures.now)
                try await transaction.access.entitle(Self.client, toOrderTypes: ["order.com.example.shop"])
                throw Abandon()
            }
        }
        #expect(try await backend.orders.currentVersion(of: candidate.identifier) == nil)
        #expect(try await backend.access.access(for: Self.client).orderTypeIdentifiers.isEmpty)
        // The backend is usable afterwards, inside and outside units of work.
        #expect(try await backend.orders.save(candidate, at: OrderFixtures.now) == .insert)
        try await backend.withTransaction { transaction in try await transaction.access.entitle(Self.client, toOrderTypes: ["t"])
        }
        #expect(try await backend.access.access(for: Self.client).orderTypeIdentifiers == ["t"])
    }

    @Test("writes from other tasks wait for a unit of work and never land inside it", arguments: BackendFactory.all)
    func isolation(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let time = Date(timeIntervalSince1970: 1_790_000_000)
        await #expect(throws: Abandon.self) {
            try await backend.withTransaction { transaction in
                try await transaction.access.setRestricted(.orders, true, at: time)
                // Another task writes meanwhile; it must not join (and be rolled back with) this unit.
                let other = RacingWrite { try await backend.access.setRestricted(.financialData, true, at: time) }
                try await other.waitUntilBlockedOrDone(on: backend)
                throw Abandon()
            }
        }
        // The other task's write committed on its own once the unit ended.
        try await Poll.until { try await backend.access.restriction(of: .financialData) != nil }
        #expect(try await backend.access.restriction(of: .financialData) == time)
        #expect(try await backend.access.restriction(of: .orders) == nil)
    }

    @Test(
        "a save racing an uncommitted newer version waits for it and keeps it (no lost newer version)",
        arguments: BackendFactory.all)
    func raceKeepsNewer(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        func candidate(_ updatedAt: String) throws -> OrderCandidate {
            try store.prepared(signedArchive: OrderFixtures.archive(updatedAt: updatedAt)).candidate
        }
        let (v1, v2, v3) = (
            try candidate("2026-01-15T09:00:00Z"), try candidate("2026-01-15T10:00:00Z"), try candidate("2026-01-15T11:00:00Z")
        )
        #expect(try await backend.orders.save(v1, at: OrderFixtures.now) == .insert)
        let older = try await backend.withTransaction { transaction in
            #expect(try await transaction.orders.save(v3, at: OrderFixtures.now) == .replace)
            // An older version arrives from elsewhere while this unit holds v3 uncommitted.
            let racing = RacingWrite { try await backend.orders.save(v2, at: OrderFixtures.now) }
            try await racing.waitUntilBlockedOrDone(on: backend)
            return racing
        }
        #expect(try await older.value == .keepNewer)
        #expect(try await backend.orders.currentVersion(of: v3.identifier)?.updatedAt == v3.updatedAt)
        #expect(try await backend.orders.history(of: v3.identifier).map(\.updatedAt) == [v1.updatedAt, v3.updatedAt])
    }
}
