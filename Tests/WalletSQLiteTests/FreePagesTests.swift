import Foundation
import GRDB
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders

@testable import WalletSQLite

/// Deleted data gives its space back: new stores with incremental auto-vacuum at once, older
/// ones once compacted.
@Suite("Store files: the space of deleted data is given back")
struct FreePagesTests {
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
    }

    static func autoVacuum(_ path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") ?? -1 }
    }

    @Test("removing an order with 1,000 registrations shrinks a new store's file by what they took")
    func removedOrderShrinksTheFile() async throws {
        let path = try SQLiteFixtures.path("free-pages")
        let wallet = try WalletStore(
            path: path,
            configuration: WalletConfiguration(
                verifier: try TestOrderArchive.verifier(), clock: { TestOrderArchive.now }))
        _ = try await wallet.orders.saveOrder(signedArchive: try TestOrderArchive.make())
        let order = FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: "ORDER-1")
        let limits = RegistrationLimits(devicesPerOrder: .max, ordersPerDevice: .max)
        try await wallet.backend.withTransaction { transaction in
            for index in 0..<1000 {
                let device = "device-\(index)-" + String(repeating: "d", count: 1000)
                _ = try await transaction.registrations.register(
                    OrderRegistration(deviceIdentifier: device, pushToken: String(repeating: "ab", count: 32), order: order),
                    at: TestOrderArchive.now, limits: limits)
            }
        }
        try await wallet.backend.close()
        let full = Self.size(path)
        #expect(try Self.autoVacuum(path) == 2, "a new store has incremental auto-vacuum")

        let again = try WalletStore(path: path)
        #expect(try await again.orders.removeOrder(order))
        try await again.backend.close()
        let after = Self.size(path)
        print("free pages: \(full) bytes with 1,000 registrations, \(after) after removing the order")
        #expect(full > 5 << 20 && after < full - (4 << 20), "\(full) → \(after) bytes")
    }

    @Test("compacting an older store (no auto-vacuum) gives its free pages back and switches it on")
    func compactOlderStore() async throws {
        let path = try SQLiteFixtures.path("compact")
        try FileManager.default.copyItem(
            at: TestArchiveTable.packageRoot.appendingPathComponent("Tests/Fixtures/store-before-storage-layer.sqlite"),
            to: URL(fileURLWithPath: path))
        #expect(try Self.autoVacuum(path) == 0)
        // Free pages of its own: a table filled and dropped.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE filler (x BLOB)")
            for _ in 0..<200 { try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(10000))") }
        }
        try await queue.write { db in try db.execute(sql: "DROP TABLE filler") }
        try queue.close()
        let (before, after) = try await SQLiteBackend.compact(at: path)
        #expect(after < before - (1 << 20), "\(before) → \(after)")
        #expect(try Self.autoVacuum(path) == 2)
        // Still the same store, readable.
        #expect(try SQLiteBackend.check(at: path, full: true) == ["ok"])
    }
}
