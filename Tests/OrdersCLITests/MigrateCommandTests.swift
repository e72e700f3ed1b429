import FinanceData
import Foundation
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
import WalletCore
import WalletPostgres
import WalletSQLite
import WalletStorage

/// `orders migrate --from sqlite:PATH --to postgres://…` through the built binary.
@Suite("orders migrate", .serialized, .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
struct MigrateCommandTests {
    static let client: ClientIdentifier = "com.example.budget"

    /// An SQLite store holding something in every copied table.
    static func populatedStore(at path: String) async throws -> (accounts: [UUID], cursor: Int64) {
        let backend = try SQLiteBackend(path: path)
        let store = try OrderFixtures.store(on: backend)
        for id in ["A", "B", "C"] {
            _ = try await store.saveOrder(signedArchive: OrderFixtures.archive(orderIdentifier: id))
        }
        _ = try await backend.registrations.register(
            OrderRegistration(deviceIdentifier: "device", pushToken: "token", order: OrderFixtures.identifier("A")),
            at: OrderFixtures.now)
        // A newer A: a version in the history and a push in the outbox.
        _ = try await store.saveOrder(
            signedArchive: OrderFixtures.archive(orderIdentifier: "A", updatedAt: "2026-01-16T00:00:00Z"))
        let accounts = [UUID(), UUID()]
        _ = try await backend.finance.apply(
            FinanceBatch(
                accounts: accounts.map { FinanceFixtures.asset($0) },
                transactions: FinanceFixtures.transactions(count: 40, accounts: accounts)),
            at: OrderFixtures.now)
        try await backend.access.grant([AccountGrant(accountID: accounts[0])], to: client, at: OrderFixtures.now)
        try await backend.access.entitle(client, toOrderTypes: [TestOrderArchive.orderTypeIdentifier])
        try await backend.access.setRestricted(.financialData, true, at: OrderFixtures.now)
        let cursor = try await backend.access.createCursor(for: client, stream: "accounts", at: OrderFixtures.now)
        try await backend.apiKeys.insertKey(
            APIKey(
                identifier: "k1", name: "shop", createdAt: OrderFixtures.now, revokedAt: nil,
                orderTypeIdentifiers: [TestOrderArchive.orderTypeIdentifier]), secretDigest: String(repeating: "ab", count: 32))
        try await backend.close()
        return (accounts, cursor)
    }

    @Test("every table arrives with its counts verified; reads agree; tags and tokens go on; a second copy is refused")
    func copiesEverything() async throws {
        let folder = try TemporaryDirectory.make("orders-migrate")
        let path = folder.appendingPathComponent("store.sqlite").path
        let (accounts, cursor) = try await Self.populatedStore(at: path)
        let url = try await TestPostgres.newDatabase()

        let result = try await OrdersProcess.run(["migrate", "--from", "sqlite:\(path)", "--to", url.redacted], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = Dictionary(
            uniqueKeysWithValues: result.lines.map { line in
                let words = line.split(separator: " ", omittingEmptySubsequences: true)
                return (String(words[0]), Int(words[1]) ?? -1)
            })
        #expect(rows.count == StoreLayout.tables.count)
        #expect(rows["orders"] == 3 && rows["orderVersions"] == 1 && rows["pushOutbox"] == 1 && rows["transactions"] == 40)
        #expect(rows["apiKeys"] == 1 && rows["historyCursors"] == 1 && rows["orderRegistrations"] == 1)
        #expect(result.stderr == "copied \(StoreLayout.tables.count) tables, counts verified: sqlite:\(path) → \(url.redacted)\n")

        let sqlite = try SQLiteBackend(path: path)
        let postgres = try await PostgresBackend.open(url)
        for id in ["A", "B", "C"] {
            let identifier = OrderFixtures.identifier(id)
            #expect(try await postgres.orders.history(of: identifier) == (try await sqlite.orders.history(of: identifier)))
            #expect(try await postgres.orders.archive(of: identifier) == (try await sqlite.orders.archive(of: identifier)))
            #expect(try await postgres.orders.servedOrder(identifier) == (try await sqlite.orders.servedOrder(identifier)))
        }
        let type = TestOrderArchive.orderTypeIdentifier
        let tag = try await sqlite.registrations.registeredOrders(
            deviceIdentifier: "device", orderTypeIdentifier: type, changedAfter: nil)
        #expect(
            try await postgres.registrations.registeredOrders(
                deviceIdentifier: "device", orderTypeIdentifier: type, changedAfter: nil)
                == tag)
        #expect(try await postgres.pushOutbox.pendingPushCount() == 1)
        #expect(try await postgres.access.access(for: Self.client) == (try await sqlite.access.access(for: Self.client)))
        #expect(try await postgres.access.restriction(of: .financialData) == OrderFixtures.now)
        #expect(try await postgres.access.storeGeneration() == (try await sqlite.access.storeGeneration()))
        #expect(try await postgres.access.isCursorValid(cursor, for: Self.client, stream: "accounts"))
        #expect(try await postgres.apiKeys.keys() == (try await sqlite.apiKeys.keys()))
        let everything = FinanceFixtures.access(accounts)
        #expect(
            try await postgres.finance.transactions(TransactionQuery(), visibleTo: everything)
                == (try await sqlite.finance.transactions(TransactionQuery(), visibleTo: everything)))
        let bounds = try await postgres.finance.historyBounds()
        let sqliteBounds = try await sqlite.finance.historyBounds()
        #expect(bounds == sqliteBounds)

        // Numbers go on after the copied ones: a new version of B is heard after the old tag,
        // and a new change record comes after the copied history.
        let store = try OrderFixtures.store(on: postgres)
        _ = try await postgres.registrations.register(
            OrderRegistration(deviceIdentifier: "device", pushToken: "token", order: OrderFixtures.identifier("B")),
            at: OrderFixtures.now)
        _ = try await store.saveOrder(
            signedArchive: OrderFixtures.archive(orderIdentifier: "B", updatedAt: "2026-01-17T00:00:00Z"))
        let after = try await postgres.registrations.registeredOrders(
            deviceIdentifier: "device", orderTypeIdentifier: type, changedAfter: tag?.lastModified)
        #expect(after?.orderIdentifiers == ["B"])
        _ = try await postgres.finance.apply(FinanceBatch(accounts: [FinanceFixtures.asset(name: "New")]), at: OrderFixtures.now)
        #expect(try await postgres.finance.historyBounds().latest == bounds.latest + 1)
        let newCursor = try await postgres.access.createCursor(for: Self.client, stream: "accounts", at: OrderFixtures.now)
        #expect(newCursor > cursor)
        try await postgres.close()

        // The target holds data now: a second copy is refused and changes nothing.
        let again = try await OrdersProcess.run(["migrate", "--from", "sqlite:\(path)", "--to", url.redacted], in: folder)
        #expect(again.status == 2)
        #expect(again.stderr.contains("already holds data (restrictions, clients, clientAccounts"), "\(again.stderr)")
        #expect(again.stdout.isEmpty)
    }

    @Test("usage: --from must be sqlite:PATH; a missing store or a bad URL is one line, exit 2, nothing created")
    func usage() async throws {
        let folder = try TemporaryDirectory.make("orders-migrate")
        let missing = folder.appendingPathComponent("missing.sqlite").path
        let url = try #require(TestPostgres.url).redacted
        let wrongScheme = try await OrdersProcess.run(["migrate", "--from", missing, "--to", url], in: folder)
        #expect(wrongScheme.status == 2 && wrongScheme.stderr.contains("--from must be sqlite:PATH"))
        let noStore = try await OrdersProcess.run(["migrate", "--from", "sqlite:\(missing)", "--to", url], in: folder)
        #expect(noStore.status == 2 && noStore.stderr.contains("there is no store at"), "\(noStore.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing))
        let badURL = try await OrdersProcess.run(
            ["migrate", "--from", "sqlite:\(missing)", "--to", "postgres://u:SECRET@db:0/x"], in: folder)
        #expect(
            badURL.status == 2 && badURL.stderr.contains("--to is not a usable database URL") && !badURL.stderr.contains("SECRET")
        )
    }
}
