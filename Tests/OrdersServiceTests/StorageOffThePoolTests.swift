import FinanceData
import Foundation
import Hummingbird
import HummingbirdTesting
import StorageContract
import Synchronization
import TestArchiveTable
import Testing
import WalletCore
import WalletOrders
import WalletPostgres

/// Long storage work does not stall the server, whatever the backend (issue 42, item 6; issue 54,
/// item 4; docs/design.md, "One threading model"). In `orders serve`'s process, on a store of
/// 50,000 transactions — SQLite, and PostgreSQL where the tests have a server:
///
/// - while an import of 50,000 more runs, device GETs and merchant reads answer with a p99 under
///   three times the idle one;
/// - (held on SQLite; on PostgreSQL measured and printed) while another import of 50,000 runs
///   *and* a client reads the 50,000 stored ones over and
///   over — two long pieces of storage work, as many as Swift concurrency's pool has threads here
///   — their p99 stays under three times the p99 under the same load on the processor without
///   any storage (two threads spinning). Two jobs that keep both cores busy slow every request
///   by themselves, whatever runs them (measured: about 7× idle, storage or not); what this
///   bounds is the wait for storage on top of that. Before SQLite's statements ran on threads of
///   their own, the import and a read each held one of the pool's two threads, and a device GET
///   waited 5.7 s — the whole import; before PostgreSQL's transaction bodies left its
///   connections' event loops, 0.26–0.41 s.
///
/// The server runs as `orders serve` runs it, its tasks on the store's own threads
/// (`WalletStore.taskExecutor`), and the long work in tasks on Swift concurrency's own pool at
/// its real size (one thread per core) — not on the threads of their own that the other
/// in-process tests give their servers (``DedicatedExecutor``). Latencies mean something only in a process that runs nothing else:
/// this test runs when `ORDERS_ALONE` is set, as `Scripts/test.sh` runs it, in a process of its
/// own after the Swift suites. The client is a thread of its own with blocking sockets, so its
/// waiting never depends on the pool it measures. Each comparison is a round — baseline, then
/// the load with a new import — and a missed round is measured again, up to ``rounds`` in all.
@Suite("Storage off the request threads", .serialized)
struct StorageOffThePoolTests {
    static let alone = ProcessInfo.processInfo.environment["ORDERS_ALONE"] != nil
    static let transactions = 50_000

    /// SQLite, and PostgreSQL where the tests have a server (issue 54, item 4: the same bound
    /// whatever the backend).
    static let backends = ["sqlite"] + (TestPostgres.url == nil ? [] : ["postgresql"])

    @Test(
        "while 50,000 transactions are imported (and 50,000 read), device GETs and merchant reads keep their p99",
        .enabled(if: alone, "runs in a process of its own: Scripts/test.sh, stage 'latency alone'"), arguments: backends)
    func longStorageWork(_ backend: String) async throws {
        let fixture = try await ServiceFixture.make(
            backend: backend == "sqlite" ? nil : try await PostgresBackend.open(try await TestPostgres.newDatabase()))
        let wallet = fixture.wallet
        let key = try await wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType])
        let accounts = (0..<3).map { _ in UUID() }
        try await wallet.apply(
            FinanceBatch(
                accounts: accounts.map { FinanceFixtures.asset($0) },
                transactions: FinanceFixtures.transactions(count: Self.transactions, accounts: [accounts[0]], seed: 1)))
        let reader = ClientIdentifier("com.example.budget")
        try await wallet.grant([AccountGrant(accountID: accounts[0])], to: reader)
        let batches = Mutex(UInt64(1))
        /// 50,000 transactions not yet stored, on one of the two other accounts.
        @Sendable func nextImport() -> FinanceBatch {
            let seed = batches.withLock { seed in
                seed += 1
                return seed
            }
            return FinanceBatch(
                transactions: FinanceFixtures.transactions(
                    count: Self.transactions, accounts: [accounts[Int(seed % 2) + 1]], seed: seed))
        }

        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        // As `orders serve` runs it (`OrdersServer`): on the store's statement threads.
        try await withTaskExecutorPreference(wallet.taskExecutor) {
            try await app.test(.live) { client in
                let requests = try Requests(port: try #require(client.port), key: key.token)
                _ = try await BlockingWork.run { try requests.measure(count: 100) }  // warm-up

                try await Self.inOneOf(rounds: Self.rounds) {
                    let idle = try await BlockingWork.run { try requests.measure(count: 400) }
                    // The long work runs as a handler would run it: in tasks on the cooperative pool.
                    let batch = nextImport()
                    let imported = try await requests.measure(during: { _ = try await wallet.apply(batch) })
                    return Self.compare(imported, below: idle, "during the import (\(backend))", against: "idle")
                }

                try await Self.inOneOf(rounds: Self.rounds) {
                    let spinning = try await requests.measure(during: {
                        let stop = Flag()
                        for _ in 0..<2 { Thread { Self.spin(until: stop) }.start() }
                        try await Task.sleep(for: .seconds(3))
                        stop.set()
                    })
                    let batch = nextImport()
                    let readsBeside = try await requests.measure(during: {
                        let importing = Flag()
                        async let reading: Int = {
                            var rows = 0
                            while !importing.isSet {
                                rows += try await wallet.financeStore(for: reader).transactions(query: TransactionQuery())
                                    .count
                            }
                            return rows
                        }()
                        _ = try await wallet.apply(batch)
                        importing.set()
                        #expect(try await reading >= Self.transactions, "the reads beside the import did not run")
                    })
                    // On PostgreSQL the server's own processes — parallel workers for each 50,000-row
                    // read, the inserts, autovacuum — share the two cores with the baseline's spinning
                    // threads and this process's work: measured and printed, not held (docs/design.md,
                    // "One threading model").
                    return Self.compare(
                        readsBeside, below: spinning, "during an import and reads (\(backend))",
                        against: "two spinning threads", holding: backend == "sqlite")
                }
            }
        }
    }

    /// A comparison is measured again, at most this many times in all, before it fails. A
    /// machine shared with other work has moments that put one p99 of a few milliseconds past
    /// three times its baseline (seen in CI: 7.0 ms against 3 × 2.1 ms); the stalls this test
    /// exists for — a request waiting for a whole import, 0.26 s to 5.7 s — fail every round.
    static let rounds = 3

    /// Runs `round` until it finds nothing to fail, at most `rounds` times; records the last
    /// round's failures.
    static func inOneOf(
        rounds: Int, sourceLocation: SourceLocation = #_sourceLocation, _ round: () async throws -> [Comment]
    ) async throws {
        for attempt in 1...rounds {
            let failures = try await round()
            if failures.isEmpty { return }
            print("storage off the pool: round \(attempt) of \(rounds) missed: \(failures.map(\.rawValue))")
            if attempt == rounds {
                for failure in failures { Issue.record(failure, sourceLocation: sourceLocation) }
            }
        }
    }

    /// Prints the p99s of `loaded` and `baseline`; when `holding`, returns what is not under
    /// three times its baseline. Too few answered requests is a failure whatever `holding` says.
    static func compare(
        _ loaded: Samples, below baseline: Samples, _ during: String, against: String, holding: Bool = true
    ) -> [Comment] {
        var failures: [Comment] = []
        for (name, times, reference) in [
            ("device GET", loaded.device, baseline.device), ("merchant read", loaded.merchant, baseline.merchant),
        ] {
            let (p99, referenceP99) = (p99(times), p99(reference))
            print("storage off the pool: \(name) p99 \(during) \(p99) (\(times.count) requests), \(against) \(referenceP99)")
            if times.count < 50 { failures.append("\(name): too few requests answered \(during) to judge") }
            if holding, !(p99 < referenceP99 * 3) {
                failures.append("\(name): p99 \(p99) \(during), not under 3 × \(referenceP99) \(against)")
            }
        }
        return failures
    }

    static func p99(_ samples: [Duration]) -> Duration {
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    }

    static func spin(until stop: Flag) {
        var count = 0
        while !stop.isSet { count &+= 1 }
        withExtendedLifetime(count) {}
    }
}

typealias Samples = (device: [Duration], merchant: [Duration])

/// Set once, read from any thread.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}

/// A device's GET of an order and a merchant's read of it, each on a keep-alive connection of its
/// own, taken in turn and timed.
private final class Requests: Sendable {
    let device: RawConnection
    let merchant: RawConnection
    let deviceRequest: String
    let merchantRequest: String

    init(port: Int, key: String) throws {
        device = try RawConnection(port: port)
        merchant = try RawConnection(port: port)
        let host = "Host: 127.0.0.1\r\n"
        deviceRequest =
            "GET \(ServiceFixture.path("v1", "orders", ServiceFixture.shopType, "ORDER-1")) HTTP/1.1\r\n\(host)"
            + "Authorization: AppleOrder \(ServiceFixture.token)\r\n\r\n"
        merchantRequest =
            "GET \(ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-1")) HTTP/1.1\r\n\(host)"
            + "Authorization: Bearer \(key)\r\n\r\n"
    }

    /// Times requests on a thread of its own while `work` runs in a task on the cooperative pool.
    func measure(during work: @escaping @Sendable () async throws -> Void) async throws -> Samples {
        let done = Flag()
        let running = Task {
            defer { done.set() }
            try await work()
        }
        let samples = try await BlockingWork.run { try self.measure(while: { !done.isSet }) }
        try await running.value
        return samples
    }

    func measure(count: Int) throws -> Samples {
        var left = count
        return try measure(while: {
            left -= 1
            return left >= 0
        })
    }

    func measure(while going: () -> Bool) throws -> Samples {
        var (deviceTimes, merchantTimes) = ([Duration](), [Duration]())
        while going() {
            deviceTimes.append(try Self.time(deviceRequest, on: device))
            merchantTimes.append(try Self.time(merchantRequest, on: merchant))
        }
        return (deviceTimes, merchantTimes)
    }

    private static func time(_ request: String, on connection: RawConnection) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        connection.send(request)
        guard let response = connection.response(), response.status == 200 else {
            throw RawConnectionError(message: "no 200 for \(request.prefix(60))")
        }
        return clock.now - start
    }
}
