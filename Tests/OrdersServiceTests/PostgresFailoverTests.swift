import Foundation
import HTTPTypes
import Logging
import NIOCore
import PostgresNIO
import StorageContract
import Synchronization
import TestArchiveTable
import Testing
import WalletCore
import WalletOrders
import WalletPostgres

/// What a PostgreSQL deployment goes through besides good days — the primary killed and its
/// synchronous standby promoted, the server restarted, a connection cut in the middle of a
/// transaction, every pooled connection busy — with `orders serve` in front, answering as
/// docs/scaling-out.md says: `503` with `Retry-After` within 2 s while it cannot serve, on its
/// own again afterwards, and no acknowledged save lost.
@Suite(
    "PostgreSQL failover, restart, lost connections and a full pool", .serialized,
    .enabled(if: TestPostgresPair.directory != nil, Comment(rawValue: TestPostgresPair.skipNote)))
struct PostgresFailoverTests {
    static let merchantHeaders: HTTPFields = [.contentType: "application/vnd.apple.finance.order"]
    static let deviceHeaders: HTTPFields = [.authorization: "AppleOrder \(ServiceFixture.token)"]
    static let orderPath = "/v1/orders/\(ServiceFixture.shopType)/ORDER-0"
    /// The bound on an answer while the database cannot serve (docs/scaling-out.md).
    static let gapBound: Duration = .seconds(2)
    static let logger = Logger(label: "test.failover")
    /// After this a request counts as never answered: every answer the test expects comes
    /// within the 2 s bound.
    static let unanswered: TimeAmount = .seconds(5)
    /// The same during a switchover: a commit on the old primary waits for its standby until the
    /// old primary stops, and the script stops it once it has seen one wait.
    static let unansweredInSwitchover: TimeAmount = .seconds(20)

    /// A wallet on `url` holding ORDER-0 and a merchant key; the key's token.
    static func prepare(_ url: String) async throws -> String {
        let backend = try await PostgresBackend.open(try PostgresDatabaseURL(url))
        let configuration = WalletConfiguration(
            verifier: try TestOrderArchive.verifier(), clock: { TestOrderArchive.now }, logger: Logger(label: "test"))
        let wallet = WalletStore(backend: backend, configuration: configuration)
        _ = try await wallet.orders.saveOrder(signedArchive: try TestOrderArchive.make(orderIdentifier: "ORDER-0"))
        let key = try await wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType])
        // Orders the instances author under the failovers (issue 43): the type's identity and
        // each order's first version.
        try await ServiceFixture.addSigningIdentity(to: wallet)
        for instance in 0..<2 {
            for order in 0..<Traffic.authoredOrders {
                _ = try await wallet.orders.saveOrder(
                    signedArchive: try TestOrderArchive.make(orderIdentifier: "A-\(instance)-\(order)"))
            }
        }
        try await backend.close()
        return key.token
    }

    /// The archive each acknowledged save stored, as the database at `url` holds it now.
    static func stored(_ identifiers: [String], at url: String) async throws -> [String: Data] {
        let backend = try await PostgresBackend.open(try PostgresDatabaseURL(url), options: .init(createIfMissing: false))
        var archives: [String: Data] = [:]
        for identifier in identifiers {
            let served = try await backend.orders.servedOrder(
                FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: identifier))
            archives[identifier] = served?.archive
        }
        try await backend.close()
        return archives
    }

    /// How a round takes the primary away.
    enum Failover: String {
        /// The machine dies (`kill -9` of every process), then the standby is promoted.
        case machineDies = "kill -9, then promote"
        /// The standby is promoted first, then the old primary is stopped with `pg_ctl stop -m
        /// fast` while commits there wait for the standby that left — as an operator or an
        /// orchestrator switches over.
        case promoteThenFast = "promote, then stop -m fast"
        /// The same with `-m immediate`.
        case promoteThenImmediate = "promote, then stop -m immediate"
    }

    /// Twelve rounds: ten that promote first and stop the old primary (fast and immediate in
    /// turn), two in which the machine dies.
    static let rounds: [Failover] = (1...12).map { round in
        round % 6 == 0 ? .machineDies : round.isMultiple(of: 2) ? .promoteThenImmediate : .promoteThenFast
    }

    @Test(
        "twelve failovers under versions PUT, versions authored (PATCH, Idempotency-Key) and device GETs through two instances: no acknowledged version lost"
    )
    func failovers() async throws {
        let database = try await TestPostgresPair.newDatabase()
        let url = try TestPostgresPair.url(database: database, options: "pool_timeout=1")
        // The test's own setup and checks wait as long as a connection takes beside the suite (60 s,
        // as the contract suite's: 10 s once ran out after the twelfth failover with the whole suite
        // on two cores); the instances answer within the gap's bound.
        let patient = try TestPostgresPair.url(database: database, options: "pool_timeout=60")
        let key = try await Self.prepare(patient)
        // Authored versions need a web service: the instances' public URL.
        let serve = ["--public-url", "https://wallet.example.com"]
        let instances = [
            try await ServeProcess.start(database: url, arguments: serve),
            try await ServeProcess.start(database: url, arguments: serve),
        ]
        // A save waiting on the old primary for the standby that left is answered when that server
        // stops, however long the switchover takes: a longer deadline than the gap's.
        let clients = instances.map { LoopbackClient(port: $0.port, deadline: Self.unansweredInSwitchover, ownThread: true) }
        let traffic = Traffic()
        let stopping = StopFlag()
        let headers = Self.merchantHeaders + [.authorization: "Bearer \(key)"]

        // Two savers per instance, each PUTting the next version of its ten orders in turn.
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for (index, client) in clients.enumerated() {
                    for saver in 0..<2 {
                        group.addTask {
                            await traffic.saveVersions(through: client, headers, naming: "F-\(index)-\(saver)", until: stopping)
                        }
                    }
                    group.addTask { await traffic.read(through: client, until: stopping) }
                    // And one author per instance, PATCHing its own orders with an Idempotency-Key:
                    // the service signs, and saves version and receipt in one unit of work.
                    group.addTask {
                        await traffic.authorVersions(
                            through: client, [.authorization: "Bearer \(key)"], naming: "A-\(index)", until: stopping)
                    }
                }
            }
        }

        var recoveries: [Duration] = []
        var waitingAtStop: [Int] = []
        do {
            try await Self.failovers(traffic, &recoveries, &waitingAtStop)
        } catch {
            // Stopped and shut down before the test ends, with what the instances said: a round
            // that did not recover names itself, and nothing is left running into the next test.
            stopping.set()
            await load.value
            for instance in instances {
                _ = await instance.stop(patience: 10)
                Self.progress("failover: an instance's standard error ended with:\n\(instance.standardError.suffix(4000))")
            }
            for client in clients { try? await client.shutdown() }
            throw error
        }
        stopping.set()
        await load.value
        let stopped = await [instances[0].stop(patience: 10), instances[1].stop(patience: 10)]
        for client in clients { try? await client.shutdown() }

        // Every version answered 200 or 201 is in its order's history on the server that is
        // primary now, and no version after an acknowledged one was answered as a new order.
        let versions = traffic.acknowledgedVersions
        let histories = try await Self.histories(Set(versions.map(\.identifier)), at: patient)
        let lost = versions.filter { !(histories[$0.identifier] ?? []).contains($0.updatedAt) }
        let report = traffic.report
        print(
            "failover: \(Self.rounds.count) failovers (\(Self.rounds.filter { $0 != .machineDies }.count) promote-then-stop, "
                + "commits waiting for the standby at each stop: \(waitingAtStop)), \(versions.count) acknowledged versions "
                + "(\(versions.filter { $0.identifier.hasPrefix("A-") }.count) authored), "
                + "acknowledged-versions-lost = \(lost.count); \(report.served) answers 200/201, "
                + "\(report.unavailable) answered 503 (slowest \(report.slowestUnavailable)), "
                + "slowest 503 by phase \(report.slowestUnavailableByPhase) (\(report.slowestUnavailableRequest)), "
                + "\(report.hung.count) never answered; back to saving after \(recoveries.map { "\($0)" }.joined(separator: ", "))"
        )
        #expect(lost.isEmpty, "acknowledged but not in the history on the promoted server: \(lost.prefix(10))")
        #expect(
            report.createdAfterAcknowledged.isEmpty,
            "answered 201 after an acknowledged version: \(report.createdAfterAcknowledged.prefix(10))")
        #expect(versions.count >= 60)
        #expect(versions.filter { $0.identifier.hasPrefix("A-") }.count >= 24, "authored versions acknowledged throughout")
        #expect(waitingAtStop.filter { $0 > 0 }.count >= 5, "commits were in flight when the old primary stopped")
        #expect(report.unavailable > 0, "the gaps were seen")
        #expect(report.unexpected.isEmpty, "answers other than 200/201/503 with Retry-After: \(report.unexpected.prefix(5))")
        // The gap a dead machine leaves is bounded by the service; a switchover's by the operator.
        #expect((report.slowestUnavailableByPhase[Failover.machineDies.rawValue] ?? .zero) < Self.gapBound)
        Self.everyRequestAnswered(report, stopped)
    }

    /// The rounds under `traffic`: each waits for saves, takes the primary away, waits for a save
    /// the promoted server acknowledged and rejoins the old primary as the standby.
    static func failovers(_ traffic: Traffic, _ recoveries: inout [Duration], _ waitingAtStop: inout [Int]) async throws {
        for (round, failover) in Self.rounds.enumerated() {
            Self.progress("failover \(round + 1) (\(failover.rawValue)): \(traffic.acknowledgedCount) acknowledged")
            // Saves acknowledged since the last failover, then the primary goes.
            let before = traffic.acknowledgedCount
            try await Self.waitFor("three acknowledged saves") { traffic.acknowledgedCount >= before + 3 }
            let began = ContinuousClock.now
            traffic.phase = failover.rawValue
            switch failover {
            case .machineDies:
                try await TestPostgresPair.run("failover")
            case .promoteThenFast, .promoteThenImmediate:
                let mode = failover == .promoteThenFast ? "fast" : "immediate"
                let waiting = try await TestPostgresPair.run("switchover", mode)
                waitingAtStop.append(Int(waiting.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
            }
            let promoted = traffic.acknowledgedCount
            try await Self.waitFor("a save acknowledged by the promoted server") { traffic.acknowledgedCount > promoted }
            recoveries.append(began.duration(to: .now))
            traffic.phase = "rejoin"
            try await TestPostgresPair.run("rejoin")
            traffic.phase = ""
        }
        let settled = traffic.acknowledgedCount
        try await Self.waitFor("saves after the last rejoin") { traffic.acknowledgedCount >= settled + 3 }
    }

    /// The `updatedAt` of every version (replaced and current) of each order, as the database at
    /// `url` holds them now.
    static func histories(_ identifiers: Set<String>, at url: String) async throws -> [String: Set<String>] {
        let backend = try await PostgresBackend.open(try PostgresDatabaseURL(url), options: .init(createIfMissing: false))
        var histories: [String: Set<String>] = [:]
        for identifier in identifiers {
            let versions = try await backend.orders.history(
                of: FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: identifier))
            histories[identifier] = Set(versions.map(\.updatedAt.text))
        }
        try await backend.close()
        return histories
    }

    /// Every request answered, and each instance ended by SIGTERM within its grace. A statement
    /// written to a connection whose server had just been killed or restarted used to wait
    /// forever (postgres-nio drops such a write; `PostgresConnection.sending` checks first, on
    /// the connection's event loop), and the instance holding it then overran its grace.
    static func everyRequestAnswered(_ report: Traffic.Report, _ stopped: [Int32]) {
        #expect(report.hung.isEmpty, "never answered: \(report.hung)")
        #expect(stopped.allSatisfy { $0 == 0 }, "exit statuses after SIGTERM: \(stopped)")
    }

    @Test("no server accepts writes: requests are answered 503 at once, not after pool_timeout; served again after the promotion")
    func noServerAcceptsWrites() async throws {
        let database = try await TestPostgresPair.newDatabase()
        // The default pool_timeout (10 s): the answer must not wait for it.
        let url = try TestPostgresPair.url(database: database)
        _ = try await Self.prepare(url)
        let instance = try await ServeProcess.start(database: url)
        let client = LoopbackClient(port: instance.port, deadline: Self.unanswered, ownThread: true)
        // Pooled connections, idle when their server dies: nothing in flight notices.
        for _ in 0..<3 {
            #expect(try await client.send(.get, Self.orderPath, headers: Self.deviceHeaders, body: nil).status == .ok)
        }
        try await TestPostgresPair.run("kill")
        var answers: [(status: HTTPResponse.Status, retryAfter: String?, took: Duration)] = []
        for _ in 0..<5 {
            let started = ContinuousClock.now
            let response = try await client.send(.get, Self.orderPath, headers: Self.deviceHeaders, body: nil)
            answers.append((response.status, response.headers[.retryAfter], started.duration(to: .now)))
        }
        try await TestPostgresPair.run("promote")
        try await Self.waitFor("a GET served by the promoted server") {
            (try? await client.send(.get, Self.orderPath, headers: Self.deviceHeaders, body: nil).status) == .ok
        }
        try await TestPostgresPair.run("rejoin")
        await #expect(instance.stop() == 0)
        try? await client.shutdown()
        for answer in answers {
            #expect(answer.status == .serviceUnavailable && answer.retryAfter == "1")
            #expect(answer.took < .milliseconds(500), "answered after \(answer.took)")
        }
        // What the log says names the problem in words, never a library's type.
        #expect(!instance.standardError.contains("ConnectionPoolError"))
        #expect(!instance.standardError.contains("serverClosedConnection"))
    }

    @Test(
        "the server restarted under load: served or 503 with Retry-After meanwhile, then served again, the service not restarted")
    func restart() async throws {
        let database = try await TestPostgresPair.newDatabase()
        let url = try TestPostgresPair.primaryURL(database: database, options: "pool_timeout=1")
        let patient = try TestPostgresPair.primaryURL(database: database, options: "pool_timeout=60")
        let key = try await Self.prepare(patient)
        let instance = try await ServeProcess.start(database: url)
        let client = LoopbackClient(port: instance.port, deadline: Self.unanswered, ownThread: true)
        let traffic = Traffic()
        let stopping = StopFlag()
        let headers = Self.merchantHeaders + [.authorization: "Bearer \(key)"]
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await traffic.save(through: client, headers, naming: "R", until: stopping) }
                for _ in 0..<2 {
                    group.addTask { await traffic.read(through: client, until: stopping) }
                }
            }
        }
        defer { stopping.set() }
        for _ in 1...2 {
            let before = traffic.acknowledgedCount
            try await Self.waitFor("saves before the restart") { traffic.acknowledgedCount >= before + 3 }
            try await TestPostgresPair.run("restart")
            let restarted = traffic.acknowledgedCount
            try await Self.waitFor("a save after the restart") { traffic.acknowledgedCount > restarted + 2 }
        }
        stopping.set()
        await load.value
        let stopped = await instance.stop(patience: 10)
        try? await client.shutdown()
        let acknowledged = traffic.acknowledged
        let stored = try await Self.stored(Array(acknowledged.keys), at: patient)
        #expect(acknowledged.allSatisfy { stored[$0.key] == $0.value })
        let report = traffic.report
        #expect(report.unexpected.isEmpty, "answers other than 200/201/503 with Retry-After: \(report.unexpected.prefix(5))")
        #expect(report.slowestUnavailable < Self.gapBound)
        // No count of 503s is required: a request whose connection was lost is answered 503, but one
        // that waited for a connection while the server came back within pool_timeout is served.
        Self.everyRequestAnswered(report, [stopped])
    }

    @Test("a connection cut in the middle of a save's transaction leaves the previous version whole; the save can be made again")
    func connectionCut() async throws {
        let database = try await TestPostgresPair.newDatabase()
        let url = try TestPostgresPair.primaryURL(database: database)
        let key = try await Self.prepare(url)
        let instance = try await ServeProcess.start(database: url)
        let client = LoopbackClient(port: instance.port)
        let headers = Self.merchantHeaders + [.authorization: "Bearer \(key)"]
        let newer = try TestOrderArchive.make(orderIdentifier: "ORDER-0", updatedAt: "2026-02-01T08:00:00Z")
        let administrator = try PostgresDatabaseURL(try TestPostgresPair.primaryURL(database: database))

        let outcome = try await TestPostgres.withAdministrator(administrator) { admin in
            try await admin.withConnection { holder in
                // The row every version's write advances, held: the save's statement stops there,
                // its history row and pushes already written in its transaction.
                _ = try await holder.query("BEGIN", logger: Self.logger)
                _ = try await holder.query("SELECT value FROM orderChangeSequence WHERE id = 1 FOR UPDATE", logger: Self.logger)
                let put = Task { try await client.send(.put, "/api/v1/orders", headers: headers, body: newer) }
                var waiting: [Int32] = []
                for _ in 0..<1000 where waiting.isEmpty {
                    try await Task.sleep(for: .milliseconds(10))
                    let rows = try await admin.query(
                        "SELECT pid FROM pg_stat_activity WHERE datname = \(database) AND wait_event_type = 'Lock'")
                    waiting = try await rows.collect().map { try $0.decode(Int32.self) }
                }
                #expect(waiting.count == 1)
                for pid in waiting { _ = try await admin.query("SELECT pg_terminate_backend(\(pid))") }
                let response = try await put.value
                _ = try await holder.query("ROLLBACK", logger: Self.logger)
                return response
            }
        }
        #expect(outcome.status == .serviceUnavailable)
        #expect(outcome.headers[.retryAfter] == "1")

        // Nothing of the cut save: the first version is served, no history row, nothing queued.
        let backend = try await PostgresBackend.open(administrator, options: .init(createIfMissing: false))
        let identifier = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-0")
        let history = try await backend.orders.history(of: identifier)
        #expect(history.map(\.updatedAt.text) == ["2026-01-15T09:30:00Z"])
        #expect(
            try await backend.orders.servedOrder(identifier)?.archive == (try TestOrderArchive.make(orderIdentifier: "ORDER-0")))

        // Made again, it is saved whole.
        let again = try await client.send(.put, "/api/v1/orders", headers: headers, body: newer)
        #expect(again.status == .ok)
        #expect(try await backend.orders.servedOrder(identifier)?.archive == newer)
        #expect(try await backend.orders.history(of: identifier).count == 2)
        try await backend.close()
        await #expect(instance.stop() == 0)
        try? await client.shutdown()
    }

    @Test("every pooled connection busy: a request waits pool_timeout, then 503 with Retry-After; the held ones finish")
    func poolExhausted() async throws {
        let database = try await TestPostgresPair.newDatabase()
        let url = try TestPostgresPair.primaryURL(database: database, options: "pool_size=2&pool_timeout=0.5")
        _ = try await Self.prepare(url)
        let instance = try await ServeProcess.start(database: url)
        let client = LoopbackClient(port: instance.port)
        let administrator = try PostgresDatabaseURL(try TestPostgresPair.primaryURL(database: database))
        let answers = try await TestPostgres.withAdministrator(administrator) { admin in
            try await admin.withConnection { holder in
                // Every read of an order waits for this lock, holding its pooled connection.
                _ = try await holder.query("BEGIN", logger: Self.logger)
                _ = try await holder.query("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE", logger: Self.logger)
                let finished = Collected<(ServiceResponse, Duration)>()
                let requests = (0..<4).map { _ in
                    Task {
                        let started = ContinuousClock.now
                        let response = try await client.send(.get, Self.orderPath, headers: Self.deviceHeaders, body: nil)
                        let answer = (response, started.duration(to: .now))
                        finished.append(answer)
                        return answer
                    }
                }
                // Two wait on the lock, holding the pool's two connections; the others get none.
                try await Self.waitFor("two answers while the lock is held") { finished.items.count >= 2 }
                let unavailable = finished.items
                _ = try await holder.query("ROLLBACK", logger: Self.logger)
                var all: [(ServiceResponse, Duration)] = []
                for request in requests { all.append(try await request.value) }
                return (early: unavailable, all: all)
            }
        }
        // At least two answered while the lock was held, each 503 after waiting pool_timeout (a
        // third, if a background task of the service held a connection meanwhile); the requests
        // holding the connections were answered once the lock went.
        #expect(answers.early.count >= 2 && answers.early.allSatisfy { $0.0.status == .serviceUnavailable })
        let unavailable = answers.all.filter { $0.0.status == .serviceUnavailable }
        #expect(unavailable.count >= 2 && unavailable.count <= 3)
        #expect(answers.all.filter { $0.0.status == .ok }.count == 4 - unavailable.count)
        for (response, took) in unavailable {
            #expect(response.headers[.retryAfter] == "1")
            #expect(response.text.contains("store.unavailable"))
            #expect(took >= .milliseconds(450) && took < Self.gapBound, "answered after \(took)")
        }
        await #expect(instance.stop() == 0)
        try? await client.shutdown()
    }

    /// A line on standard error, unbuffered, for following a long test.
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("\(line)\n".utf8))
    }

    static func waitFor(_ what: String, _ condition: () async -> Bool) async throws {
        guard await Poll.until(timeout: .seconds(60), every: .milliseconds(10), condition) else {
            throw WaitTimedOut(description: "\(what) did not happen within 60 s")
        }
    }

    struct WaitTimedOut: Error, CustomStringConvertible {
        var description: String
    }
}

/// What tasks of a test hand back as they finish.
final class Collected<Item: Sendable>: Sendable {
    private let state = Mutex<[Item]>([])
    var items: [Item] { state.withLock { $0 } }
    func append(_ item: Item) { state.withLock { $0.append(item) } }
}

/// Set once, to end the traffic of a test.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

/// Requests sent during a test and what came of them.
final class Traffic: Sendable {
    struct Report {
        var served = 0
        var unavailable = 0
        var slowestUnavailable: Duration = .zero
        var unexpected: [String] = []
        /// Requests never answered (the client gave up after ``PostgresFailoverTests/unanswered``).
        var hung: [String] = []
        /// Versions answered `201` (a new order) after an earlier version of the same order had
        /// been acknowledged: that earlier version was lost.
        var createdAfterAcknowledged: [Version] = []
        /// The slowest `503` in each phase the test named (``Traffic/phase``).
        var slowestUnavailableByPhase: [String: Duration] = [:]
        /// The request and the reason of the slowest `503` of each phase.
        var slowestUnavailableRequest: [String: String] = [:]
    }

    private let currentPhase = Mutex("")
    /// What the test is doing now, for the report's ``Report/slowestUnavailableByPhase``.
    var phase: String {
        get { currentPhase.withLock { $0 } }
        set { currentPhase.withLock { $0 = newValue } }
    }

    /// A version of an order the service answered 200 or 201 for.
    struct Version: CustomStringConvertible {
        var identifier: String
        var updatedAt: String
        var description: String { "\(identifier) \(updatedAt)" }
    }

    private let state = Mutex(
        (acknowledged: [String: Data](), versions: [Version](), acknowledgedOrders: Set<String>(), report: Report()))

    /// Saves answered 200 or 201: by ``save(through:_:naming:until:)`` and
    /// ``saveVersions(through:_:naming:until:)`` alike.
    var acknowledgedCount: Int { state.withLock { $0.acknowledged.count + $0.versions.count } }
    var acknowledged: [String: Data] { state.withLock { $0.acknowledged } }
    var acknowledgedVersions: [Version] { state.withLock { $0.versions } }
    var report: Report { state.withLock { $0.report } }

    /// Merchant PUTs of new orders (`PREFIX-1`, `PREFIX-2`, …), one after another, until `stop`.
    func save(through client: LoopbackClient, _ headers: HTTPFields, naming prefix: String, until stop: StopFlag) async {
        var number = 0
        while !stop.isSet {
            number += 1
            let identifier = "\(prefix)-\(number)"
            guard let archive = try? TestOrderArchive.make(orderIdentifier: identifier) else { continue }
            await send(client, .put, "/api/v1/orders", headers, archive, saving: (identifier, archive))
        }
    }

    /// Merchant PUTs of versions of ten orders (`PREFIX-0` … `PREFIX-9`), each PUT the next
    /// version (a second later) of the next order in turn, one after another, until `stop`.
    func saveVersions(through client: LoopbackClient, _ headers: HTTPFields, naming prefix: String, until stop: StopFlag) async {
        let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        var number = 0
        while !stop.isSet {
            number += 1
            let identifier = "\(prefix)-\(number % 10)"
            let updatedAt = RFC3339Timestamp(start.addingTimeInterval(TimeInterval(number))).text
            guard let archive = try? TestOrderArchive.make(orderIdentifier: identifier, updatedAt: updatedAt) else { continue }
            await send(
                client, .put, "/api/v1/orders", headers, archive, saving: nil,
                version: Version(identifier: identifier, updatedAt: updatedAt))
        }
    }

    /// How many orders each author PATCHes in turn (`PREFIX-0` …).
    static let authoredOrders = 5

    /// Merchant PATCHes of `{"orderNumber":…}` to its orders in turn, each with an Idempotency-Key
    /// of its own, one after another, until `stop`; an acknowledged one is the version its answer
    /// names (the service chose its `updatedAt`).
    func authorVersions(through client: LoopbackClient, _ headers: HTTPFields, naming prefix: String, until stop: StopFlag) async
    {
        var number = 0
        var headers = headers
        headers[.contentType] = "application/merge-patch+json"
        while !stop.isSet {
            number += 1
            let identifier = "\(prefix)-\(number % Self.authoredOrders)"
            if let field = HTTPField.Name("Idempotency-Key") { headers[field] = "\(prefix)-\(number)" }
            await send(
                client, .patch, "/api/v1/orders/\(ServiceFixture.shopType)/\(identifier)/content", headers,
                Data(#"{"orderNumber":"\#(number)"}"#.utf8), saving: nil
            ) { answer in
                let updatedAt = (try? JSONSerialization.jsonObject(with: answer) as? [String: Any])?["updatedAt"] as? String
                return updatedAt.map { Version(identifier: identifier, updatedAt: $0) }
            }
        }
    }

    /// Device GETs of the test order, one after another, until `stop`.
    func read(through client: LoopbackClient, until stop: StopFlag) async {
        while !stop.isSet {
            await send(client, .get, PostgresFailoverTests.orderPath, PostgresFailoverTests.deviceHeaders, nil, saving: nil)
        }
    }

    /// Sends one request and records the answer: a save answered 200 or 201 as acknowledged;
    /// a `503` with its time; anything else (another status, a 503 without `Retry-After`, no
    /// answer) as unexpected.
    func send(
        _ client: LoopbackClient, _ method: HTTPRequest.Method, _ path: String, _ headers: HTTPFields, _ body: Data?,
        saving: (identifier: String, archive: Data)?, version: Version? = nil,
        answered: ((Data) -> Version?)? = nil
    ) async {
        let started = ContinuousClock.now
        let response: ServiceResponse
        do {
            response = try await client.send(method, path, headers: headers, body: body)
        } catch {
            let deadline = "\(error)".contains("deadlineExceeded")
            state.withLock {
                if deadline {
                    $0.report.hung.append("\(method) \(path)")
                } else {
                    $0.report.unexpected.append("\(method) \(path): \(error)")
                }
            }
            return
        }
        // From the request to its answer's head, as the client's own event loop saw it arrive: not
        // to when this task resumes, which waits for a thread of the pool the suite's other tests
        // keep busy (docs/scaling-out.md, "Failover", what the 2 s depend on).
        let took = started.duration(to: response.answeredAt ?? .now)
        state.withLock { state in
            switch response.status {
            case .ok, .created:
                state.report.served += 1
                if let saving { state.acknowledged[saving.identifier] = saving.archive }
                if let version = version ?? answered?(response.body) {
                    if response.status == .created && state.acknowledgedOrders.contains(version.identifier) {
                        state.report.createdAfterAcknowledged.append(version)
                    }
                    state.acknowledgedOrders.insert(version.identifier)
                    state.versions.append(version)
                }
            case .serviceUnavailable where response.headers[.retryAfter] != nil:
                state.report.unavailable += 1
                state.report.slowestUnavailable = max(state.report.slowestUnavailable, took)
                let phase = self.phase
                if took > state.report.slowestUnavailableByPhase[phase] ?? .zero {
                    state.report.slowestUnavailableByPhase[phase] = took
                    // The reason, after the database URL the message starts with.
                    let message = response.text.components(separatedBy: "pool_timeout=1: ").last ?? response.text
                    state.report.slowestUnavailableRequest[phase] = "\(method) \(path): \(message.prefix(160))"
                }
            default:
                state.report.unexpected.append("\(method) \(path): \(response.status.code) \(response.text.prefix(300))")
            }
        }
        if response.status == .serviceUnavailable {
            // As a client honouring Retry-After would, though sooner: the test wants the gap's end.
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}
