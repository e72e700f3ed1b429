import Benchmark
import Foundation
import GRDB
import OrderPackage
import OrderStorage
import Synchronization
import WalletPrimitives
import WalletSQLite

// saveOrder and containsOrder against stores of 1,000 to 1,000,000 orders.
//
// Seeded stores are kept in $TMPDIR/wallet-orders-benchmarks and reused while they hold the
// expected number of orders (seeding a million takes about a minute). Seeded orders carry small
// synthetic archives: the lookups and writes measured here do not read archive bytes.

let benchmarks: @Sendable () -> Void = {
    let sizes = [1_000, 10_000, 100_000, 1_000_000]

    for size in sizes {
        // 1,000 lookups per sample: the harness costs ~20 µs per sample, as much as a lookup.
        // run.sh divides the figures of a "×1,000" benchmark by 1,000.
        lookups("containsOrder ×1,000, store of \(size.formatted()) orders", size: size) { store, identifier in
            try await store.containsOrder(matching: identifier, updatedDate: SeededStore.seededDate)
        }
    }

    // What containsOrder read before issue 11 (the whole current row), for the ratio in one run.
    lookups("order(_:) (the whole current row) ×1,000, store of 1,000,000 orders", size: 1_000_000) { store, identifier in
        try await store.order(identifier)
    }

    Benchmark(
        "saveOrder (verify + store a new order), store of 100,000 orders",
        configuration: .init(
            metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(5), maxIterations: 1_500)
    ) { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(try await state.store.saveOrder(signedArchive: state.nextArchive()))
        }
    } setup: {
        SaveState(
            store: try await SeededStore.open(size: 100_000, copy: true), archives: try SeededStore.signedArchives(count: 1_600))
    }

    // Two saves at once: verification runs on both cores, the writes take turns.
    Benchmark(
        "saveOrder (verify + store a new order, 2 tasks at once) ×2, store of 100,000 orders",
        configuration: .init(
            metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(5), maxIterations: 750)
    ) { benchmark, state in
        for _ in benchmark.scaledIterations {
            async let first = state.store.saveOrder(signedArchive: state.nextArchive())
            async let second = state.store.saveOrder(signedArchive: state.nextArchive())
            blackHole(try await (first, second))
        }
    } setup: {
        SaveState(
            store: try await SeededStore.open(size: 100_000, copy: true), archives: try SeededStore.signedArchives(count: 1_600))
    }

    Benchmark(
        "saveOrder (store only, pre-verified), store of 100,000 orders",
        configuration: .init(
            metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(5), maxIterations: 20_000)
    ) { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(try await state.store.repository.save(state.nextCandidate(), at: SeededStore.seededDate))
        }
    } setup: {
        SaveState(store: try await SeededStore.open(size: 100_000, copy: true), archives: [])
    }
}

/// 1,000 lookups per sample of random stored orders, starting at a random one.
func lookups<T>(
    _ name: String, size: Int, _ lookUp: @escaping @Sendable (OrderStore, FullyQualifiedOrderIdentifier) async throws -> T
) {
    Benchmark(
        name,
        configuration: .init(
            metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(4),
            maxIterations: 200)
    ) { benchmark, state in
        let start = Int.random(in: 0..<state.identifiers.count)
        for index in benchmark.scaledIterations {
            blackHole(try await lookUp(state.store, state.identifier(start + index)))
        }
    } setup: {
        LookupState(store: try await SeededStore.open(size: size), size: size)
    }
}

/// Random lookups of stored orders.
final class LookupState: Sendable {
    let store: OrderStore
    let identifiers: [FullyQualifiedOrderIdentifier]

    init(store: OrderStore, size: Int) {
        self.store = store
        identifiers = (0..<4_096).map { _ in SeededStore.identifier(Int.random(in: 0..<size)) }
    }

    func identifier(_ index: Int) -> FullyQualifiedOrderIdentifier {
        identifiers[index % identifiers.count]
    }
}

/// A store copy and an endless supply of orders it has not seen.
final class SaveState: Sendable {
    let store: OrderStore
    let archives: [Data]
    private let counter = Mutex(0)

    init(store: OrderStore, archives: [Data]) {
        self.store = store
        self.archives = archives
    }

    func nextArchive() -> Data {
        archives[
            counter.withLock { value in
                defer { value += 1 }; return value
            } % archives.count]
    }

    func nextCandidate() -> OrderCandidate {
        SeededStore.candidate(
            2_000_000_000
                + counter.withLock { value in
                    defer { value += 1 }; return value
                })
    }
}

/// Stores seeded with synthetic orders, and real signed archives for saving.
enum SeededStore {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-orders-benchmarks")
    static let seededDate = Date(timeIntervalSince1970: 1_768_469_400)  // 2026-01-15T09:30:00Z
    static let orderTypeIdentifier = "order.com.example.shop"
    static var testArchives: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("TestArchives")
    }

    static func identifier(_ index: Int) -> FullyQualifiedOrderIdentifier {
        FullyQualifiedOrderIdentifier(orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: "SEED-\(index)")
    }

    static func candidate(_ index: Int) -> OrderCandidate {
        let updatedAt = RFC3339Timestamp(seededDate)
        return OrderCandidate(
            identifier: identifier(index), updatedAt: updatedAt, createdAt: updatedAt,
            status: index % 3 == 0 ? "completed" : "open",
            merchantIdentifier: "merchant.com.example.shop", merchantDisplayName: "Example Shop", teamIdentifier: "ABCDE12345",
            archive: Data(repeating: UInt8(truncatingIfNeeded: index), count: 256),
            archiveSHA256: String(repeating: String(index % 16, radix: 16), count: 64), orderJSON: Data("{}".utf8))
    }

    /// A store holding exactly `size` seeded orders (a fresh copy when the benchmark writes).
    static func open(size: Int, copy: Bool = false) async throws -> OrderStore {
        let path = folder.appendingPathComponent("orders-\(size).sqlite")
        var repository = try SQLiteBackend(path: path.path).orders
        let count = try await DatabaseQueue(path: path.path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM orders")
        }
        if count != size {
            try FileManager.default.removeItem(at: path)
            repository = try SQLiteBackend(path: path.path).orders
            for start in stride(from: 0, to: size, by: 10_000) {
                _ = try await repository.save(contentsOf: (start..<min(start + 10_000, size)).map(candidate), at: seededDate)
            }
        }
        if copy {
            // Copies are scratch: remove the ones earlier runs left (a removed file stays
            // readable by a process that still has it open).
            let previous = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasPrefix("orders-\(size)-") }
            for name in previous { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
            let copyPath = folder.appendingPathComponent("orders-\(size)-\(UUID().uuidString).sqlite")
            try DatabaseQueue(path: path.path).backup(to: try DatabaseQueue(path: copyPath.path))
            repository = try SQLiteBackend(path: copyPath.path).orders
        }
        let root = try Data(contentsOf: testArchives.appendingPathComponent("pki/root.pem"))
        let verifier = OrderVerifier(trustStore: try TrustStore.apple.adding(roots: [root]))
        return OrderStore(repository: repository, verifier: verifier)
    }

    /// Distinct, valid, signed archives for new orders (order.json from the small source).
    static func signedArchives(count: Int) throws -> [Data] {
        let source = testArchives.appendingPathComponent("sources/small")
        let pki = testArchives.appendingPathComponent("pki")
        var files: [String: Data] = [:]
        for name in ["logo.png", "item.png"] { files[name] = try Data(contentsOf: source.appendingPathComponent(name)) }
        let template = try Data(contentsOf: source.appendingPathComponent("order.json"))
        let signer = try OrderSigner(
            certificate: Data(contentsOf: pki.appendingPathComponent("order.pem")),
            privateKey: Data(contentsOf: pki.appendingPathComponent("order.key")),
            intermediates: [Data(contentsOf: pki.appendingPathComponent("wwdr.pem"))])
        let builder = OrderPackageBuilder(signer: signer)
        let run = UUID().uuidString.prefix(8)
        return try (0..<count).map { index in
            var order = try JSONSerialization.jsonObject(with: template) as? [String: Any] ?? [:]
            order["orderIdentifier"] = "NEW-\(run)-\(index)"
            var sources = files
            sources["order.json"] = try JSONSerialization.data(withJSONObject: order)
            return try builder.build(files: sources)
        }
    }
}
