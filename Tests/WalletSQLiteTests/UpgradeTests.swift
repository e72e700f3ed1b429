import Foundation
import GRDB
import StorageContract
import TestArchiveTable
import Testing
import WalletOrders

@testable import WalletSQLite

/// A store written before the storage layer (Tests/Fixtures, made with the `orders` binary of
/// commit f7cc519: three orders, the sample feed and its update, a client with a grant and an
/// entitlement, a lifted restriction) opens with every record intact.
@Suite("Stores written by earlier versions open and keep their data")
struct UpgradeTests {
    static let fixture = TestArchiveTable.packageRoot.appendingPathComponent("Tests/Fixtures/store-before-storage-layer.sqlite")
    static let client: ClientIdentifier = "com.example.budget"
    static let checking = UUID(uuidString: "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B") ?? UUID()

    /// A copy, so the committed file is never changed.
    static func copy() throws -> String {
        let path = try SQLiteFixtures.path("upgrade")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        return path
    }

    @Test("orders, access and financial data are all there, and the store keeps working")
    func opensAndWorks() async throws {
        let path = try Self.copy()
        let wallet = try WalletStore(path: path)
        let orders = try await wallet.orders.orders(matching: OrderQuery())
        #expect(Set(orders.map(\.identifier.orderIdentifier)) == ["ORDER-123", "ORDER-FULL-1", "ORDER-L10N-1"])
        let access = try await wallet.access(for: Self.client)
        #expect(access.status == .authorized)
        #expect(access.accounts[Self.checking]?.earliestDate != nil)
        #expect(access.orderTypeIdentifiers == ["order.com.example.shop"])
        #expect(try await wallet.restriction(of: .financialData) == nil)

        let store = wallet.financeStore(for: Self.client)
        let transactions = try await store.transactions(query: TransactionQuery())
        #expect(!transactions.isEmpty && transactions.allSatisfy { $0.accountID == Self.checking })
        var batches = 0
        for try await _ in store.transactionHistory(forAccountID: Self.checking, since: nil, isMonitoring: false) { batches += 1 }
        #expect(batches >= 1)

        // Still writable through the new layer: the update feed again changes nothing, a new
        // grant is recorded.
        let update = try Data(contentsOf: TestArchiveTable.packageRoot.appendingPathComponent("Samples/finance-feed-update.json"))
        let summary = try await wallet.importFeed(update)
        #expect(summary.transactions.inserted == 0 && summary.transactions.unchanged > 0)
        try await wallet.grant([AccountGrant(accountID: Self.checking)], to: "com.example.other")
        #expect(try await wallet.access(for: "com.example.other").status == .authorized)
        #expect(try SQLiteBackend.check(at: path, full: true) == ["ok"])
    }

    @Test("the migration table gains only the new migrations: nothing was re-run, nothing is unknown")
    func migrations() throws {
        let path = try Self.copy()
        _ = try WalletStore(path: path)
        let applied = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
        #expect(applied == SQLiteSchema.migrator.migrations.sorted())
        #expect(
            applied == [
                "core.v1", "core.v2", "core.v3", "core.v4", "core.v5", "finance.v1", "finance.v2", "finance.v3", "finance.v4",
                "finance.v5",
                "orders.v1",
                "orders.v2",
                "orders.v3", "orders.v4", "orders.v5", "orders.v6", "orders.v7", "orders.v8", "orders.v9",
            ])
    }

    @Test("orders.v2 gives every stored version its authenticationToken and a change sequence in saving order")
    func webServiceColumns() async throws {
        let path = try Self.copy()
        let backend = try SQLiteBackend(path: path)
        let identifier = FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "ORDER-123")
        let served = try #require(try await backend.orders.servedOrder(identifier))
        #expect(served.authenticationToken == "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b")
        let (sequences, counter, versionTokens) = try await backend.pool.read { db in
            (
                try Int64.fetchAll(db, sql: "SELECT changeSequence FROM orders ORDER BY id"),
                try Int64.fetchOne(db, sql: "SELECT value FROM orderChangeSequence") ?? -1,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM orderVersions WHERE authenticationToken IS NULL") ?? -1
            )
        }
        #expect(sequences == sequences.sorted() && Set(sequences).count == 3 && !sequences.contains(0))
        #expect(counter == sequences.max())
        #expect(versionTokens == 0)
    }

    @Test("orders.v7 folds pushes queued twice for one device and order type into the oldest, which counts the others")
    func pushesFold() throws {
        let queue = try DatabaseQueue(path: try SQLiteFixtures.path("fold"))
        try SQLiteSchema.migrator.migrate(queue, upTo: "orders.v6")
        try queue.write { db in
            for (device, type, order) in [
                ("D1", "type.a", "O1"), ("D1", "type.a", "O2"), ("D2", "type.a", "O1"), ("D1", "type.a", "O1"),
                ("D1", "type.b", "O1"),
            ] {
                try db.execute(
                    sql: """
                        INSERT INTO pushOutbox (pushToken, orderTypeIdentifier, orderIdentifier, deviceIdentifier, enqueuedAt,
                        nextAttemptAt) VALUES ('token', ?, ?, ?, 0, 0)
                        """, arguments: [type, order, device])
            }
        }
        try SQLiteSchema.migrator.migrate(queue)
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, deviceIdentifier, orderTypeIdentifier, coalesced FROM pushOutbox ORDER BY id")
                .map { "\($0[0] as Int64) \($0[1] as String) \($0[2] as String) \($0[3] as Int64)" }
        }
        #expect(rows == ["1 D1 type.a 2", "3 D2 type.a 0", "5 D1 type.b 0"])
    }
}
