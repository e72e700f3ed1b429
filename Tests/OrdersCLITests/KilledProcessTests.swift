import FinanceData
import Foundation
import OrderPackage
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
import WalletSQLite

/// `kill -9` at random points (seeded, so a failure replays) of a bulk `orders add` and of
/// `orders finance import`, 30 times each: before the store exists, while it is created and
/// migrated, between saves, inside the import's one transaction, after the answer. Every time the
/// store opens, `PRAGMA integrity_check` is ok, nothing is half-written and every write the
/// process acknowledged on stdout is there.
@Suite("SIGKILL at random points, 30 times each, through the real binary", .serialized)
struct KilledProcessTests {
    static let rounds = 30
    static let root = TestArchiveTable.testRoot.path

    /// Starts `arguments` and kills the process after `delay`, or as soon as it has printed
    /// `lines` lines; returns what it printed.
    static func killed(
        _ arguments: [String], after delay: Duration, orAtLine lines: Int? = nil, in folder: URL, name: String
    ) async throws -> [String] {
        let (process, output) = try ConcurrencyAndCrashTests.start(arguments, in: folder, name: name)
        // The watch runs on a thread of its own: on the cooperative pool, under the whole suite's
        // load, a 1 ms sleep could last long enough for the process to finish unkilled.
        let processIdentifier = process.processIdentifier
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                Poll.untilBlocking(timeout: delay, every: .milliseconds(1)) {
                    guard kill(processIdentifier, 0) == 0 else { return true }
                    guard let lines else { return false }
                    return (try? Data(contentsOf: output))?.count(where: { $0 == UInt8(ascii: "\n") }) ?? 0 >= lines
                }
                kill(processIdentifier, SIGKILL)
                finished.resume()
            }
        }
        await process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus == 0)
        return try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("bulk add: every order acknowledged is stored whole; nothing unacknowledged is half there")
    func bulkAdd() async throws {
        let workspace = try StoreWorkspace()
        let files = try (0..<120).map { try workspace.archive("k\($0).order", orderIdentifier: "KILL-\($0)") }
        let contents = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        var random = SplitMix64(state: 2026_11_24)
        let clock = ContinuousClock()
        let started = clock.now
        var killedMidway = 0
        for round in 0..<Self.rounds {
            // A new store each round, so kills also land while it is created and migrated.
            let store = workspace.folder.appendingPathComponent("round\(round).sqlite").path
            // One round in three early (opening, creating, migrating the store), the others after
            // a random number of answers.
            let early = round % 3 == 0
            let lines = try await Self.killed(
                ["add", "--yes", "--store", store, "--trust-root", Self.root] + files,
                after: .milliseconds(early ? Int.random(in: 0...60, using: &random) : 10_000),
                orAtLine: early ? nil : Int.random(in: 1..<files.count, using: &random), in: workspace.folder, name: "add\(round)"
            )
            let acknowledged = Set(lines.filter { $0.hasPrefix("added ") }.compactMap { $0.split(separator: " ").last })
            if acknowledged.count < files.count { killedMidway += 1 }
            guard FileManager.default.fileExists(atPath: store) else {
                #expect(acknowledged.isEmpty, "round \(round): acknowledged without a store")
                continue
            }
            let orders = try SQLiteBackend(path: store).orders
            #expect(try SQLiteBackend.check(at: store, full: true) == ["ok"], "round \(round)")
            for (index, file) in files.enumerated() {
                let identifier = FullyQualifiedOrderIdentifier(
                    orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: "KILL-\(index)")
                let archive = try await orders.archive(of: identifier)
                if acknowledged.contains(Substring(file)) {
                    #expect(archive == contents[index], "round \(round): acknowledged \(file) lost")
                } else {
                    #expect(archive == nil || archive == contents[index], "round \(round): \(file) half-written")
                }
            }
        }
        #expect(killedMidway >= 15, "the kills missed the adds: only \(killedMidway) rounds stopped before the end")
        #expect(clock.now - started < .seconds(150))
    }

    @Test("finance import: each feed is there whole or not at all; every acknowledged feed stays")
    func financeImport() async throws {
        let workspace = try StoreWorkspace()
        let store = workspace.store
        let sample = TestArchiveTable.packageRoot.appendingPathComponent("Samples/finance-feed.json").path
        #expect(try await OrdersProcess.run(["finance", "import", "--store", store, sample]).status == 0)
        var acknowledged: [[UUID]] = [FaultFeed.sampleIdentifiers]
        var random = SplitMix64(state: 24_11_2026)
        let clock = ContinuousClock()
        let started = clock.now
        var rolledBack = 0
        for round in 0..<Self.rounds {
            let feed = workspace.folder.appendingPathComponent("feed\(round).json")
            let ids = try FaultFeed.write(to: feed, batch: 100 + round, transactions: 4_000)
            let delay = Duration.milliseconds(Int.random(in: 0...600, using: &random))
            let lines = try await Self.killed(
                ["finance", "import", "--store", store, feed.path], after: delay, in: workspace.folder, name: "import\(round)")

            #expect(try SQLiteBackend.check(at: store, full: true) == ["ok"], "round \(round)")
            let present = try await FaultInjectionTests.transactions(ids, in: store)
            if lines.first?.hasPrefix("imported ") == true {
                #expect(present == ids.count, "round \(round): an acknowledged import lost transactions")
                acknowledged.append(ids)
            } else {
                #expect(present == 0 || present == ids.count, "round \(round): \(present) of \(ids.count) imported")
                if present == 0 { rolledBack += 1 } else { acknowledged.append(ids) }
            }
            // Every feed acknowledged so far, in one read of the store.
            let earlier = acknowledged.flatMap { $0 }
            #expect(
                try await FaultInjectionTests.transactions(earlier, in: store) == earlier.count,
                "round \(round): an earlier feed lost transactions")
        }
        #expect(rolledBack >= 5, "the kills missed the imports: only \(rolledBack) rounds rolled back")
        #expect(clock.now - started < .seconds(150))
    }
}
