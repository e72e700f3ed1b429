import Foundation
import OrderPackage
import OrderStorage
import TestArchiveTable
import Testing
import WalletSQLite

@Suite("Many processes at once, and a process killed mid-add", .serialized)
struct ConcurrencyAndCrashTests {
    /// Starts `orders` without waiting; output goes to files so nothing blocks on a full pipe.
    static func start(_ arguments: [String], in folder: URL, name: String) throws -> (Process, URL) {
        let output = folder.appendingPathComponent("\(name).out")
        let errors = folder.appendingPathComponent("\(name).err")
        try Data().write(to: output)
        try Data().write(to: errors)
        let process = Process()
        process.executableURL = OrdersProcess.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    @Test("eight processes adding different versions of one order: the newest is stored, every answer is right")
    func processes() async throws {
        let workspace = try StoreWorkspace()
        let updates = (0..<8).map { String(format: "2026-01-15T09:30:%02d.5Z", $0) }
        let files = try updates.enumerated().map { index, updatedAt in
            try workspace.archive("v\(index).order", updatedAt: updatedAt)
        }
        // Create the store first in a shuffled race as well: open + migrate is part of what must be safe.
        let runs = try files.shuffled().enumerated().map { index, file in
            try Self.start(
                ["add", "--store", workspace.store, "--trust-root", TestArchiveTable.testRoot.path, file], in: workspace.folder,
                name: "p\(index)")
        }
        var added: [String] = []
        for (process, output) in runs {
            await process.waitUntilExit()
            let line = try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .newlines)
            #expect(process.terminationStatus == 0 || process.terminationStatus == 3, "\(line)")
            #expect(line.hasPrefix("added ") || line.hasPrefix("newerExisting "), "\(line)")
            if line.hasPrefix("added ") { added.append(String(line.split(separator: " ").last ?? "")) }
        }
        for index in 0..<runs.count {
            let errors = try String(contentsOf: workspace.folder.appendingPathComponent("p\(index).err"), encoding: .utf8)
            #expect(!errors.contains("locked"), "\(errors)")
        }
        let repository = try SQLiteBackend(path: workspace.store).orders
        let id = FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: "ORDER-1")
        #expect(try await repository.currentVersion(of: id)?.updatedAt.text == updates.last)
        #expect(added.contains(files.last ?? ""))
        // Exactly the versions that answered `added` are in the history, in increasing order.
        let history = try await repository.history(of: id).map(\.updatedAt.text)
        let addedVersions = added.compactMap { file in files.firstIndex(of: file).map { updates[$0] } }
        #expect(history == addedVersions.sorted())
        #expect(try SQLiteBackend.check(at: workspace.store, full: true) == ["ok"])
    }

    @Test("SIGKILL during a bulk add leaves a consistent store; adding again completes it")
    func killed() async throws {
        let workspace = try StoreWorkspace()
        let files = try (0..<120).map { try workspace.archive("o\($0).order", orderIdentifier: "BULK-\($0)") }
        let arguments = ["add", "--yes", "--store", workspace.store, "--trust-root", TestArchiveTable.testRoot.path] + files
        let repository = { try SQLiteBackend(path: workspace.store).orders }
        for round in 0..<3 {
            let (process, output) = try Self.start(arguments, in: workspace.folder, name: "kill\(round)")
            // Kill once the run is well under way (a different point each round).
            let target = 10 + round * 15
            await Poll.until(timeout: .seconds(60), every: .milliseconds(5)) {
                let lines = (try? String(contentsOf: output, encoding: .utf8))?.split(separator: "\n").count ?? 0
                return lines >= target || !process.isRunning
            }
            kill(process.processIdentifier, SIGKILL)
            await process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus == 0)

            let store = try repository()
            #expect(try SQLiteBackend.check(at: workspace.store, full: true) == ["ok"])
            // Every stored order is whole: its archive matches its recorded SHA-256.
            for stored in try await store.orders(matching: OrderQuery(limit: 1000)) {
                let archive = try #require(try await store.archive(of: stored.identifier))
                #expect(archive.count == stored.archiveSize)
                #expect(
                    OrderVerifier(trustStore: try TestArchiveTable.trustStore(), clock: { TestOrderArchive.now }).verify(archive)
                        .archiveSHA256 == stored.archiveSHA256)
            }
        }
        let finish = try await OrdersProcess.run(arguments, in: workspace.folder)
        #expect(finish.status == 0, "\(finish.stderr)")
        #expect(try await repository().orders(matching: OrderQuery(limit: 1000)).count == files.count)
    }
}
