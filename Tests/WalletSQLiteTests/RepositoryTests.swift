import Foundation
import GRDB
import OrderPackage
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
import WalletCore
import WalletPrimitives

@testable import WalletSQLite

@Suite("The SQLite orders: listing, removal, concurrency, durability")
struct RepositoryTests {
    @Test("list filters by type, status and date, newest first, in pages")
    func listing() async throws {
        let (store, _, _) = try OrderFixtures.store()
        for (index, status) in ["open", "completed", "open", "cancelled", "open"].enumerated() {
            let archive = try OrderFixtures.archive(
                orderIdentifier: "ORDER-\(index)", updatedAt: "2026-01-1\(index)T00:00:00Z", status: status)
            #expect(try await store.saveOrder(signedArchive: archive) == .added)
        }
        #expect(
            try await store.orders().map(\.identifier.orderIdentifier) == ["ORDER-4", "ORDER-3", "ORDER-2", "ORDER-1", "ORDER-0"])
        #expect(
            try await store.orders(matching: OrderQuery(status: "open")).map(\.identifier.orderIdentifier) == [
                "ORDER-4", "ORDER-2", "ORDER-0",
            ])
        let since = try #require(RFC3339Timestamp("2026-01-12T00:00:00Z"))
        #expect(try await store.orders(matching: OrderQuery(updatedSince: since)).count == 3)
        #expect(try await store.orders(matching: OrderQuery(orderTypeIdentifier: "order.com.example.other")).isEmpty)
        #expect(
            try await store.orders(matching: OrderQuery(limit: 2, offset: 2)).map(\.identifier.orderIdentifier) == [
                "ORDER-2", "ORDER-1",
            ])
    }

    @Test("a batch is decided entry by entry, in order, in one transaction")
    func batch() async throws {
        let (store, repository, _) = try OrderFixtures.store()
        let prepared = try [
            ("A", "2026-01-15T00:00:00Z"), ("A", "2026-01-16T00:00:00Z"), ("A", "2026-01-14T00:00:00Z"),
            ("B", "2026-01-15T00:00:00Z"),
        ].map { id, updatedAt in
            try store.prepared(signedArchive: OrderFixtures.archive(orderIdentifier: id, updatedAt: updatedAt))
        }
        let decisions = try await repository.save(contentsOf: prepared.map(\.candidate), at: OrderFixtures.now)
        #expect(decisions == [.insert, .replace, .keepNewer, .insert])
        #expect(
            try await store.history(OrderFixtures.identifier("A")).map(\.updatedAt.text) == [
                "2026-01-15T00:00:00Z", "2026-01-16T00:00:00Z",
            ])
    }

    @Test("removal deletes the order and its history")
    func removal() async throws {
        let (store, _, path) = try OrderFixtures.store()
        _ = try await store.saveOrder(signedArchive: try OrderFixtures.archive(updatedAt: "2026-01-15T09:30:00Z"))
        _ = try await store.saveOrder(signedArchive: try OrderFixtures.archive(updatedAt: "2026-01-16T09:30:00Z"))
        #expect(try await store.removeOrder(OrderFixtures.identifier()))
        #expect(try await store.removeOrder(OrderFixtures.identifier()) == false)
        #expect(try await store.history(OrderFixtures.identifier()).isEmpty)
        let leftovers = try await SQLiteFixtures.backend(at: path.path).pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM orderVersions")
        }
        #expect(leftovers == 0)
    }

    @Test("many tasks saving versions of one order at once: the newest wins, every result is right")
    func concurrentTasks() async throws {
        let (store, _, _) = try OrderFixtures.store()
        let versions = try (0..<16).map { try OrderFixtures.archive(updatedAt: String(format: "2026-01-15T09:30:%02dZ", $0)) }
        let results = await withTaskGroup(of: (Int, SaveOrderResult?).self) { group in
            for (index, archive) in versions.enumerated() {
                group.addTask { (index, try? await store.saveOrder(signedArchive: archive)) }
            }
            return await group.reduce(into: [Int: SaveOrderResult?]()) { $0[$1.0] = $1.1 }
        }
        #expect(results.values.allSatisfy { $0 == .added || $0 == .newerExisting })
        #expect(results[15] == .added)
        #expect(try await store.archive(OrderFixtures.identifier()) == versions[15])
        // The versions that were added are exactly the history, in increasing order.
        let history = try await store.history(OrderFixtures.identifier()).map(\.updatedAt)
        let added = results.filter { $0.value == .added }.keys.sorted()
        #expect(history.map(\.text) == added.map { String(format: "2026-01-15T09:30:%02dZ", $0) })
        #expect(history == history.sorted())
    }

    @Test("the store survives reopening and passes SQLite's integrity check; it is in WAL mode")
    func reopen() async throws {
        let (store, _, path) = try OrderFixtures.store()
        let archive = try OrderFixtures.archive()
        _ = try await store.saveOrder(signedArchive: archive)
        let reopened = try SQLiteFixtures.backend(at: path.path)
        #expect(try await reopened.orders.archive(of: OrderFixtures.identifier()) == archive)
        #expect(try SQLiteBackend.check(at: path.path, full: true) == ["ok"])
        let mode = try await reopened.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test("a file that is not a store, or a place that cannot hold one, is store.unavailable")
    func unavailable() throws {
        let folder = try TemporaryDirectory.make("not-a-store")
        let garbage = folder.appendingPathComponent("orders.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: garbage)
        #expect {
            try SQLiteBackend(path: garbage.path)
        } throws: { error in
            (error as? StorageError)?.reason.contains("not an SQLite database") == true
        }
        #expect(throws: StorageError.self) { try SQLiteBackend(path: "/proc/orders/orders.sqlite") }
    }
}
