import Foundation
import HTTPTypes
import Logging
import OrderPackage
import OrderStorage
import StorageContract
import Synchronization
import TestArchiveTable
import Testing
import WalletCore
@_spi(Testing) import WalletOrders
import WalletPostgres

/// Two `orders serve` processes on one PostgreSQL database — directly and through PgBouncer in
/// session and transaction pooling — what one is told, the other acts on.
@Suite(
    "Two orders serve instances on one PostgreSQL database", .serialized,
    .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
struct PostgresInstancesTests {
    static let order = "/v1/orders/\(ServiceFixture.shopType)/ORDER-1"
    static let registration = "/v1/devices/phone/registrations/\(ServiceFixture.shopType)/ORDER-1"

    /// A PostgreSQL database holding the test order's first version, a wallet on it, and a key.
    static func database(_ route: String) async throws -> (url: PostgresDatabaseURL, wallet: WalletStore, key: String) {
        let url = try await TestPostgres.newDatabase(route: route)
        let configuration = WalletConfiguration(
            verifier: try TestOrderArchive.verifier(), clock: { TestOrderArchive.now }, logger: Logger(label: "test"))
        let wallet = WalletStore(backend: try await PostgresBackend.open(url), configuration: configuration)
        _ = try await wallet.orders.saveOrder(signedArchive: try TestOrderArchive.make())
        let key = try await wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType])
        return (url, wallet, key.token)
    }

    static func pushes(_ instances: [ServeProcess]) -> [Int] {
        instances.map { $0.standardError.components(separatedBy: "would push").count - 1 }
    }

    @Test(
        "a device registered through one instance hears of a version saved through the other, exactly once",
        arguments: TestPostgres.routes)
    func pushAcrossInstances(_ route: String) async throws {
        let (url, wallet, key) = try await Self.database(route)
        let a = try await ServeProcess.start(database: url.redacted)
        let b = try await ServeProcess.start(database: url.redacted)
        let (clientA, clientB) = (LoopbackClient(port: a.port), LoopbackClient(port: b.port))
        let registered = try await clientA.send(
            .post, Self.registration,
            headers: [.authorization: "AppleOrder \(ServiceFixture.token)", .contentType: "application/json"],
            body: Data(#"{"pushToken":"\#(ServiceFixture.pushToken)"}"#.utf8))
        #expect(registered.status == .created)
        let put = try await clientB.send(
            .put, "/api/v1/orders",
            headers: [.authorization: "Bearer \(key)", .contentType: "application/vnd.apple.finance.order"],
            body: try TestOrderArchive.make(updatedAt: "2026-02-01T08:00:00Z"))
        #expect(put.status == .ok)
        // Both drainers poll the one outbox (once a second); one of them sends.
        var pending = try await wallet.backend.pushOutbox.pendingPushCount()
        for _ in 0..<500 where pending > 0 {
            try await Task.sleep(for: .milliseconds(20))
            pending = try await wallet.backend.pushOutbox.pendingPushCount()
        }
        #expect(pending == 0)
        // Stopping waits for each drainer's claim in flight: a second send of the push, if any
        // drainer had claimed it too, is logged before its process exits.
        let (stoppedA, stoppedB) = (await a.stop(), await b.stop())
        #expect(stoppedA == 0 && stoppedB == 0)
        #expect(Self.pushes([a, b]).reduce(0, +) == 1, "sent exactly once: \(Self.pushes([a, b]))")
        // The device, asking either instance, gets the new version.
        try await clientA.shutdown()
        try await clientB.shutdown()
    }

    @Test(
        "a key revoked elsewhere is refused by every instance for each request begun 1 s after (the key's staleness bound)",
        arguments: TestPostgres.routes)
    func revocationAcrossInstances(_ route: String) async throws {
        let (url, wallet, key) = try await Self.database(route)
        let instances = [
            try await ServeProcess.start(database: url.redacted), try await ServeProcess.start(database: url.redacted),
        ]
        let clients = instances.map { LoopbackClient(port: $0.port) }
        let path = "/api/v1/orders/\(ServiceFixture.shopType)/ORDER-1"
        let headers: HTTPFields = [.authorization: "Bearer \(key)"]
        // Each instance has read the key.
        for client in clients { #expect(try await client.send(.get, path, headers: headers, body: nil).status == .ok) }
        _ = try await wallet.revokeAPIKey(key)
        let revoked = ContinuousClock.now
        for (index, client) in clients.enumerated() {
            // Ask until 1.2 s after the revocation; every request begun 1 s after it is refused.
            var answers: [(begun: Duration, status: Int)] = []
            while answers.last.map({ $0.begun < .milliseconds(1200) }) ?? true {
                let begun = revoked.duration(to: .now)
                answers.append((begun, try await client.send(.get, path, headers: headers, body: nil).status.code))
                try await Task.sleep(for: .milliseconds(20))
            }
            let late = answers.filter { $0.begun >= .seconds(1) }
            #expect(!late.isEmpty && late.allSatisfy { $0.status == 401 }, "instance \(index): \(answers)")
        }
        for client in clients { try await client.shutdown() }
        for instance in instances { #expect(await instance.stop() == 0) }
    }

    @Test(
        "kill -9 of an instance in the middle of saves leaves whole versions only; the other delivers the pushes",
        arguments: TestPostgres.routes)
    func killedMidSave(_ route: String) async throws {
        let (url, wallet, key) = try await Self.database(route)
        let a = try await ServeProcess.start(database: url.redacted)
        let b = try await ServeProcess.start(database: url.redacted)
        _ = try await wallet.webService.register(
            deviceIdentifier: "phone", pushToken: ServiceFixture.pushToken,
            for: FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1"),
            authenticationToken: ServiceFixture.token)
        let versions = try (1...30).map { try TestOrderArchive.make(updatedAt: String(format: "2026-02-01T08:00:%02dZ", $0)) }
        let clientA = LoopbackClient(port: a.port)
        let progress = Atomic<Int>(0)
        let saving = Task {
            for version in versions {
                let response = try? await clientA.send(
                    .put, "/api/v1/orders",
                    headers: [.authorization: "Bearer \(key)", .contentType: "application/vnd.apple.finance.order"], body: version
                )
                guard response?.status == .ok else { break }
                progress.add(1, ordering: .relaxed)
            }
        }
        // Killed once a few saves were answered, while the next ones are on their way.
        for _ in 0..<1500 where progress.load(ordering: .relaxed) < 5 { try await Task.sleep(for: .milliseconds(10)) }
        await #expect(a.stop(signal: SIGKILL) == 128 + SIGKILL)
        await saving.value
        let answered = progress.load(ordering: .relaxed)
        try? await clientA.shutdown()

        // Every stored version is whole (its archive, digest and token), in order, each once;
        // every answered save is among them.
        let identifier = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")
        let history = try await wallet.backend.orders.history(of: identifier)
        let times = history.map(\.updatedAt.text)
        #expect(times == times.sorted() && Set(times).count == times.count)
        #expect(history.count >= answered + 1, "answered \(answered), stored \(history.count)")
        let served = try #require(try await wallet.backend.orders.servedOrder(identifier))
        #expect(served.archive.map { SHA256Digest.hex(of: $0) } == served.archiveSHA256)
        #expect(served.authenticationToken == ServiceFixture.token)

        // Pushes owed for committed versions are delivered by the survivor (after the dead
        // instance's lease, for any it had claimed).
        var pending = try await wallet.backend.pushOutbox.pendingPushCount()
        for _ in 0..<4500 where pending > 0 {
            try await Task.sleep(for: .milliseconds(20))
            pending = try await wallet.backend.pushOutbox.pendingPushCount()
        }
        #expect(pending == 0)
        await #expect(b.stop() == 0)
    }
}
