import Foundation
import OrderPackage
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
import WalletPostgres

/// Several `orders` processes on one PostgreSQL database (issue 10's multi-process tests).
@Suite(
    "Many processes on one PostgreSQL database", .serialized,
    .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
struct PostgresProcessesTests {
    static let orderCount = 20
    static let versionsPerOrder = 50
    static let processCount = 4

    @Test("one process, 24 files: saves overlap on several connections, versions of one order stored in argument order")
    func overlappingSavesInOrder() async throws {
        let url = try await TestPostgres.newDatabase()
        try await StoreCommandsTests.addsManyInOrder(in: try StoreWorkspace(), backend: ["--database", url.redacted])
    }

    @Test("4 processes × 250 saves of interleaved versions of 20 orders: newest kept, histories exact, no duplicates")
    func interleavedSaves() async throws {
        let url = try await TestPostgres.newDatabase()
        let workspace = try StoreWorkspace()
        // Version v of order o is updated at second v; every process gets every 4th version of
        // every order, in a shuffled order, so all four race on all twenty orders at once.
        var files: [(order: Int, version: Int, path: String)] = []
        for order in 0..<Self.orderCount {
            for version in 0..<Self.versionsPerOrder {
                let path = try workspace.archive(
                    "o\(order)v\(version).order", orderIdentifier: "ORDER-\(order)",
                    updatedAt: String(format: "2026-01-15T09:%02d:%02dZ", version / 60, version % 60))
                files.append((order, version, path))
            }
        }
        var random = SystemRandomNumberGenerator()
        let shares = (0..<Self.processCount).map { process in
            files.enumerated().filter { $0.offset % Self.processCount == process }.map(\.element).shuffled(using: &random)
        }
        let runs = try shares.enumerated().map { index, share in
            try ConcurrencyAndCrashTests.start(
                ["add", "--yes", "--database", url.redacted, "--trust-root", TestArchiveTable.testRoot.path] + share.map(\.path),
                in: workspace.folder, name: "p\(index)")
        }
        var added: Set<String> = []
        for (index, (process, output)) in runs.enumerated() {
            await process.waitUntilExit()
            let errors = try String(contentsOf: workspace.folder.appendingPathComponent("p\(index).err"), encoding: .utf8)
            #expect(process.terminationStatus == 0 || process.terminationStatus == 3, "\(errors)")
            let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == shares[index].count, "\(errors)")
            for line in lines {
                let words = line.split(separator: " ", omittingEmptySubsequences: true)
                #expect(words.first == "added" || words.first == "newerExisting", "\(line)")
                if words.first == "added", let path = words.last { added.insert(String(path)) }
            }
        }

        let backend = try await PostgresBackend.open(url)
        for order in 0..<Self.orderCount {
            let id = FullyQualifiedOrderIdentifier(
                orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: "ORDER-\(order)")
            let history = try await backend.orders.history(of: id)
            let versions = history.map(\.updatedAt.text)
            // The newest version is the current one, whichever process saved it.
            #expect(history.last?.replacedAt == nil)
            #expect(versions.last == String(format: "2026-01-15T09:%02d:%02dZ", 0, Self.versionsPerOrder - 1))
            // Exactly the versions some process was told `added` are stored, each once, in order.
            let addedVersions = files.filter { $0.order == order && added.contains($0.path) }.map {
                String(format: "2026-01-15T09:%02d:%02dZ", $0.version / 60, $0.version % 60)
            }
            #expect(versions == addedVersions.sorted(), "ORDER-\(order)")
            #expect(Set(versions).count == versions.count)
        }
        try await backend.close()
    }
}
