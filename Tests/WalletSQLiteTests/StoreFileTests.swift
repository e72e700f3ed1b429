import Foundation
import GRDB
import StorageContract
import TestArchiveTable
import Testing
import WalletOrders

@testable import WalletSQLite

/// What opening the embedded store does with what it finds at the path.
@Suite("Store files: foreign files refused unchanged, damage reported, old stores upgraded")
struct StoreFileTests {
    static func folder() throws -> URL { try TemporaryDirectory.make("store-file") }

    static func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    static func applicationID(_ path: String) throws -> Int32 {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0 }
    }

    @Test(
        "another application's database is refused, byte for byte unchanged, with no companion files",
        arguments: [
            "CREATE TABLE orders (x); CREATE TABLE clients (y);",  // collides with our table names
            "CREATE TABLE grdb_migrations (identifier TEXT PRIMARY KEY); INSERT INTO grdb_migrations VALUES ('v1');",
            "PRAGMA application_id = 42; CREATE TABLE t (x);", "PRAGMA application_id = 7;",
        ])
    func foreign(_ sql: String) throws {
        let folder = try Self.folder()
        let path = folder.appendingPathComponent("app.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StorageError.self) { try WalletStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try Self.contents(folder) == ["app.sqlite"])
    }

    @Test("a file that is not SQLite is refused and left alone")
    func notSQLite() throws {
        let folder = try Self.folder()
        let path = folder.appendingPathComponent("notes.txt").path
        try Data("remember the milk\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try WalletStore(path: path)
        } throws: { error in
            (error as? StorageError)?.reason.contains("it is not an SQLite database") == true
        }
        #expect(try Self.contents(folder) == ["notes.txt"])
    }

    @Test("an empty file or an empty database becomes a store, stamped with the application id")
    func empty() throws {
        let folder = try Self.folder()
        let zero = folder.appendingPathComponent("zero.sqlite").path
        #expect(FileManager.default.createFile(atPath: zero, contents: nil))
        _ = try WalletStore(path: zero)
        #expect(try Self.applicationID(zero) == 0x574F_5244)

        let blank = folder.appendingPathComponent("blank.sqlite").path
        try DatabaseQueue(path: blank).close()
        _ = try WalletStore(path: blank)
        #expect(try Self.applicationID(blank) == 0x574F_5244)
    }

    @Test("a store whose creation was killed after GRDB made its migration table opens and is finished")
    func interruptedCreation() throws {
        let folder = try Self.folder()
        let path = folder.appendingPathComponent("interrupted.sqlite").path
        // What KilledProcessTests found: a kill between GRDB's CREATE TABLE grdb_migrations and
        // the first migration's commit, from a version that stamped the id after migrating.
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        try queue.close()
        _ = try WalletStore(path: path)
        #expect(try Self.applicationID(path) == 0x574F_5244)
        #expect(try SQLiteBackend.check(at: path, full: true) == ["ok"])
    }

    @Test("a store written before the application id existed opens, keeps its data and is stamped")
    func upgradesOldStore() async throws {
        let folder = try Self.folder()
        let path = folder.appendingPathComponent("old.sqlite").path
        let wallet = try WalletStore(path: path, configuration: WalletConfiguration(verifier: try TestOrderArchive.verifier()))
        #expect(try await wallet.orders.saveOrder(signedArchive: TestOrderArchive.make()) == .added)
        try await SQLiteFixtures.pool(wallet).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = 0") }
        try SQLiteFixtures.pool(wallet).close()
        #expect(try Self.applicationID(path) == 0)

        let reopened = try WalletStore(path: path)
        let id = FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: "ORDER-1")
        #expect(try await reopened.orders.containsOrder(matching: id) == .exists)
        try SQLiteFixtures.pool(reopened).close()
        #expect(try Self.applicationID(path) == 0x574F_5244)
    }

    @Test("readers never create: no file, folder or lock file")
    func readersDoNotCreate() throws {
        let folder = try Self.folder()
        let path = folder.appendingPathComponent("deep/er/store.sqlite").path
        #expect(throws: StorageError(reason: "there is no store at \(path)")) {
            try WalletStore(path: path, createIfMissing: false)
        }
        #expect(try Self.contents(folder).isEmpty)
    }

    /// A store of a few orders with the root page of the `orders` table overwritten.
    static func damagedStore() async throws -> String {
        let path = try Self.folder().appendingPathComponent("damaged.sqlite").path
        let wallet = try WalletStore(path: path, configuration: WalletConfiguration(verifier: try TestOrderArchive.verifier()))
        for index in 0..<5 {
            _ = try await wallet.orders.saveOrder(signedArchive: TestOrderArchive.make(orderIdentifier: "ORDER-\(index)"))
        }
        // Into the main file, so that the damage below is what SQLite reads.
        let root = try await SQLiteFixtures.pool(wallet).writeWithoutTransaction { db -> Int in
            _ = try db.checkpoint(.truncate)
            return try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'orders'") ?? 0
        }
        try SQLiteFixtures.pool(wallet).close()
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(root - 1) * 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
        return path
    }

    @Test("a damaged store is store.corrupt on opening, with what to do; check lists the damage")
    func damaged() async throws {
        let path = try await Self.damagedStore()
        #expect {
            try WalletStore(path: path)
        } throws: { error in
            guard let error = error as? StorageError else { return false }
            return error.isCorrupt && error.code == "store.corrupt" && error.reason.contains("orders doctor")
                && error.reason.contains(".recover")
        }
        let problems = try SQLiteBackend.check(at: path, full: true)
        #expect(problems != ["ok"] && !problems.isEmpty)
    }

    @Test("damage met after opening (a store too large to check on open) is store.corrupt too")
    func damagedAfterOpening() async throws {
        let path = try await Self.damagedStore()
        let backend = try SQLiteBackend(path: path, options: SQLiteBackend.Options(quickCheckLimit: 0))
        let wallet = WalletStore(backend: backend, configuration: WalletConfiguration())
        let id = FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: "ORDER-1")
        await #expect {
            _ = try await wallet.orders.containsOrder(matching: id)
        } throws: { error in
            // The one storage error, wherever the damage is met (here: the restriction read).
            guard let error = error as? StorageError, error.isCorrupt else { return false }
            return error.reason.contains("orders doctor")
        }
    }
}
