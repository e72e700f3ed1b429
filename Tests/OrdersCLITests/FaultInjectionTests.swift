import FinanceData
import Foundation
import OrderPackage
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
import WalletCore
import WalletSQLite

/// A full disk and a read-only store under every kind of write: saveOrder, a feed import, history
/// compaction, and a version whose save writes a push into the outbox. Each through the built
/// binary on a real tmpfs (``ConfinedStore``); afterwards the store opens, `PRAGMA
/// integrity_check` is ok, nothing is half-written and nothing acknowledged is lost.
@Suite("A full disk and a read-only store, through the real binary", .serialized)
struct FaultInjectionTests {
    static let root = TestArchiveTable.testRoot.path
    static let full = "the disk holding the store is full"
    static let checking = "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B"

    /// Lines of stderr that are not the bulk summary.
    static func problems(_ result: OrdersProcess.Result) -> [String] {
        result.stderr.split(separator: "\n").map(String.init).filter { !$0.contains(" files: ") }
    }

    @Test("saveOrder on a full disk: one clear line per failed file; everything acknowledged stays whole")
    func saveOnFullDisk() async throws {
        let workspace = try StoreWorkspace()
        let confined = try ConfinedStore(in: workspace.folder)
        let seeded = try (0..<2).map { try workspace.archive("seed\($0).order", orderIdentifier: "SEED-\($0)") }
        let seeding = try await OrdersProcess.run(
            ["add", "--yes", "--store", confined.seedStore, "--trust-root", Self.root] + seeded)
        #expect(seeding.status == 0, "\(seeding.stderr)")
        let files = try (0..<30).map { try workspace.archive("new\($0).order", orderIdentifier: "NEW-\($0)") }

        let result = try await confined.run(
            ["add", "--yes", "--store", ConfinedStore.storePlaceholder, "--trust-root", Self.root] + files, headroom: 160)
        let acknowledged = Set(result.lines.filter { $0.hasPrefix("added ") }.compactMap { $0.split(separator: " ").last })
        // Per-file answers are on stdout, the summary on stderr.
        let failures = result.lines.filter { !$0.hasPrefix("added ") }
        #expect(result.status == 2)
        #expect(!failures.isEmpty, "the disk never filled: \(result.stdout)")
        #expect(!acknowledged.isEmpty, "nothing fitted: \(result.stdout)")
        #expect(Self.problems(result).isEmpty, "\(result.stderr)")
        for line in failures {
            #expect(line.hasPrefix("store.unavailable /") && line.contains(Self.full), "\(line)")
            #expect(line.utf8.count < 400)
        }
        #expect(acknowledged.count + failures.count == files.count, "\(result.stdout)\n\(result.stderr)")

        #expect(try SQLiteBackend.check(at: confined.resultStore, full: true) == ["ok"])
        let orders = try SQLiteBackend(path: confined.resultStore).orders
        for (index, file) in (seeded + files).enumerated() {
            let identifier = FullyQualifiedOrderIdentifier(
                orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier,
                orderIdentifier: index < seeded.count ? "SEED-\(index)" : "NEW-\(index - seeded.count)")
            let stored = try await orders.currentVersion(of: identifier)
            if index < seeded.count || acknowledged.contains(Substring(file)) {
                let archive = try await orders.archive(of: identifier)
                #expect(archive == (try Data(contentsOf: URL(fileURLWithPath: file))), "\(file) acknowledged but not whole")
                #expect(stored?.archiveSHA256 == archive.map(SHA256Digest.hex(of:)))
            } else {
                #expect(stored == nil, "\(file) failed but is stored")
            }
        }
    }

    @Test("a feed import on a full disk is rolled back whole; with space it imports")
    func importOnFullDisk() async throws {
        let workspace = try StoreWorkspace()
        let confined = try ConfinedStore(in: workspace.folder)
        let sample = TestArchiveTable.packageRoot.appendingPathComponent("Samples/finance-feed.json").path
        #expect(try await OrdersProcess.run(["finance", "import", "--store", confined.seedStore, sample]).status == 0)
        let feed = workspace.folder.appendingPathComponent("big.json")
        let ids = try FaultFeed.write(to: feed, batch: 1, transactions: 3_000)

        let result = try await confined.run(
            ["finance", "import", "--store", ConfinedStore.storePlaceholder, feed.path], headroom: 64)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(Self.problems(result).count == 1 && result.stderr.contains(Self.full), "\(result.stderr)")

        #expect(try SQLiteBackend.check(at: confined.resultStore, full: true) == ["ok"])
        #expect(try await Self.transactions(ids, in: confined.resultStore) == 0)
        #expect(try await Self.transactions(FaultFeed.sampleIdentifiers, in: confined.resultStore) == 5)
        let retried = try await OrdersProcess.run(["finance", "import", "--store", confined.resultStore, feed.path])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(try await Self.transactions(ids, in: confined.resultStore) == ids.count)
    }

    @Test("history compaction on a full disk removes nothing; with space it removes every old record")
    func compactionOnFullDisk() async throws {
        let workspace = try StoreWorkspace()
        let confined = try ConfinedStore(in: workspace.folder)
        let feed = workspace.folder.appendingPathComponent("old.json")
        _ = try FaultFeed.write(to: feed, batch: 2, transactions: 3_000)
        // Change records from 200 days ago: past the 180-day retention.
        let backend = try SQLiteBackend(path: confined.seedStore)
        _ = try await backend.finance.apply(
            try FinanceFeed.parse(Data(contentsOf: feed)), at: Date().addingTimeInterval(-200 * 86_400), compactingBefore: nil)
        let before = try await backend.finance.historyBounds()
        try await backend.close()

        let result = try await confined.run(["finance", "compact", "--store", ConfinedStore.storePlaceholder], headroom: 48)
        #expect(result.status == 2, "\(result.stdout)")
        #expect(Self.problems(result).count == 1 && result.stderr.contains(Self.full), "\(result.stderr)")

        #expect(try SQLiteBackend.check(at: confined.resultStore, full: true) == ["ok"])
        let after = try SQLiteBackend(path: confined.resultStore)
        #expect(try await after.finance.historyBounds() == before)
        try await after.close()
        let retried = try await OrdersProcess.run(["finance", "compact", "--store", confined.resultStore])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stdout.hasPrefix("removed ") && !retried.stdout.hasPrefix("removed 0 "), "\(retried.stdout)")
    }

    @Test("a newer version on a full disk writes no version and no push; with space, exactly one push")
    func outboxOnFullDisk() async throws {
        let workspace = try StoreWorkspace()
        let confined = try ConfinedStore(in: workspace.folder)
        let first = try workspace.archive("v1.order", updatedAt: "2026-01-15T09:30:00Z")
        let newer = try workspace.archive("v2.order", updatedAt: "2026-01-16T09:30:00Z")
        #expect(
            try await OrdersProcess.run(["add", "--yes", "--store", confined.seedStore, "--trust-root", Self.root, first]).status
                == 0)
        let identifier = FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: "ORDER-1")
        let backend = try SQLiteBackend(path: confined.seedStore)
        _ = try await backend.registrations.register(
            OrderRegistration(deviceIdentifier: "device-1", pushToken: "token-1", order: identifier), at: Date())
        try await backend.close()

        let result = try await confined.run(
            ["add", "--yes", "--store", ConfinedStore.storePlaceholder, "--trust-root", Self.root, newer], headroom: 36)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.lines.count == 1 && result.stdout.contains(Self.full), "\(result.stdout)")

        #expect(try SQLiteBackend.check(at: confined.resultStore, full: true) == ["ok"])
        let after = try SQLiteBackend(path: confined.resultStore)
        #expect(try await after.orders.currentVersion(of: identifier)?.updatedAt.text == "2026-01-15T09:30:00Z")
        #expect(try await after.pushOutbox.pendingPushCount() == 0)
        try await after.close()
        let retried = try await OrdersProcess.run([
            "add", "--yes", "--store", confined.resultStore, "--trust-root", Self.root, newer,
        ])
        #expect(retried.status == 0, "\(retried.stderr)")
        let reopened = try SQLiteBackend(path: confined.resultStore)
        #expect(try await reopened.pushOutbox.pendingPushCount() == 1)
        try await reopened.close()
    }

    @Test(
        "a read-only store refuses every write in one line (exit 2) and is left byte for byte",
        arguments: ["add", "import", "compact", "remove"])
    func readOnlyStore(_ command: String) async throws {
        let workspace = try StoreWorkspace()
        let confined = try ConfinedStore(in: workspace.folder)
        let archive = try workspace.archive("a.order")
        #expect(
            try await OrdersProcess.run(["add", "--yes", "--store", confined.seedStore, "--trust-root", Self.root, archive])
                .status == 0
        )
        let sample = TestArchiveTable.packageRoot.appendingPathComponent("Samples/finance-feed.json").path
        let arguments: [String] =
            switch command {
            case "add":
                [
                    "add", "--yes", "--store", ConfinedStore.storePlaceholder, "--trust-root", Self.root,
                    try workspace.archive("b.order", orderIdentifier: "B"),
                ]
            case "import": ["finance", "import", "--store", ConfinedStore.storePlaceholder, sample]
            case "remove":
                [
                    "remove", "--store", ConfinedStore.storePlaceholder, "--type", TestOrderArchive.orderTypeIdentifier, "--id",
                    "ORDER-1",
                ]
            default: ["finance", "compact", "--store", ConfinedStore.storePlaceholder]
            }
        let before = try confined.snapshot(of: confined.seed)

        let result = try await confined.run(arguments, readOnly: true)
        #expect(result.status == 2)
        #expect(Self.problems(result).count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("the store cannot be written") && result.stderr.contains("Read-only file system"))
        #expect(try confined.snapshot(of: confined.result) == before)
    }

    @Test("reading commands read a store in a folder they cannot write, creating nothing; a -wal in use is refused by name")
    func readOnlyReads() async throws {
        let workspace = try StoreWorkspace()
        let confined = try ConfinedStore(in: workspace.folder)
        let archive = try workspace.archive("a.order", orderIdentifier: "READ-1")
        let seeding = try await OrdersProcess.run(
            ["add", "--yes", "--store", confined.seedStore, "--trust-root", Self.root, archive])
        #expect(seeding.status == 0, "\(seeding.stderr)")
        let before = try confined.snapshot(of: confined.seed)
        let store = ConfinedStore.storePlaceholder
        let type = TestOrderArchive.orderTypeIdentifier
        for arguments in [
            ["list", "--store", store], ["check", "--store", store, "--type", type, "--id", "READ-1"],
            ["show", "--store", store, "--type", type, "--id", "READ-1"], ["doctor", "--store", store],
        ] {
            let result = try await confined.run(arguments, readOnly: true)
            #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
            #expect(
                result.stdout.contains(
                    ["list", "show"].contains(arguments[0]) ? "READ-1" : arguments[0] == "check" ? "exists" : "ok"),
                "\(arguments[0]): \(result.stdout)")
            #expect(try confined.snapshot(of: confined.result) == before, "\(arguments[0]) left files")
        }
        // A writer's unfinished changes cannot be read without the folder: said, not guessed.
        try Data(repeating: 1, count: 4096).write(to: confined.seed.appendingPathComponent(ConfinedStore.fileName + "-wal"))
        let refused = try await confined.run(["list", "--store", store], readOnly: true)
        #expect(refused.status == 2 && refused.stdout.isEmpty)
        #expect(
            refused.stderr.contains("its -wal file holds changes") && refused.stderr.contains("write access"), "\(refused.stderr)"
        )
    }

    /// How many of `ids` the store holds.
    static func transactions(_ ids: [UUID], in store: String) async throws -> Int {
        let backend = try SQLiteBackend(path: store)
        let access = FinanceFixtures.access([try #require(UUID(uuidString: checking))])
        let count = try await backend.finance.transactions(ids: ids, visibleTo: access).count
        try await backend.close()
        return count
    }
}
