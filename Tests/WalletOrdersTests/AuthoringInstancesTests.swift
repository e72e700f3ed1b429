import Foundation
import OrderPackage
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
import WalletOrders
import WalletPostgres
import WalletPrimitives

/// Two instances authoring the same order on one PostgreSQL database, their clocks an hour apart
/// (issue 43): every patch of both is saved, each version strictly later than the one before.
@Suite("Authoring from two instances", .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
struct AuthoringInstancesTests {
    /// The instances' public URL: the one the shipped sources name.
    static let webService = WebServiceURLPolicy(serviceURL: "https://shop.example.com/wallet/")

    @Test("clocks an hour apart, patches at once: every version saved, updatedAt strictly increasing")
    func skewedClocks() async throws {
        let url = try await TestPostgres.newDatabase()
        let ahead = TestClock(Date(timeIntervalSince1970: 1_795_000_000))
        let behind = TestClock(Date(timeIntervalSince1970: 1_795_000_000 - 3_600))
        let a = WalletStore(
            backend: try await PostgresBackend.open(url), configuration: try WalletFixtures.configuration(clock: ahead))
        let b = WalletStore(
            backend: try await PostgresBackend.open(url), configuration: try WalletFixtures.configuration(clock: behind))
        _ = try await a.addSigningIdentity(
            orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, certificate: try TestArchiveTable.data("pki/order.pem"),
            key: .file(path: TestArchiveTable.directory.appendingPathComponent("pki/order.key").path, passphrase: nil),
            intermediates: [try TestArchiveTable.data("pki/wwdr.pem")])
        let sources = TestArchiveTable.directory.appendingPathComponent("sources/small")
        let identifier = FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: "ORDER-123")
        let first = try await b.authorOrder(
            identifier,
            content: .replace(
                orderJSON: try Data(contentsOf: sources.appendingPathComponent("order.json")),
                resources: try OrderPackageBuilder.sources(in: sources)), webService: Self.webService)
        #expect(first.isFirstVersion)

        let rounds = 15
        for round in 0..<rounds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (name, wallet) in [("a", a), ("b", b)] {
                    group.addTask {
                        _ = try await wallet.authorOrder(
                            identifier, content: .mergePatch(Data(#"{"orderNumber":"\#(name)-\#(round)"}"#.utf8)),
                            webService: Self.webService)
                    }
                }
                try await group.waitForAll()
            }
        }
        // Both read the other's versions: instance b's clock never moves the order back.
        let history = try await a.orders.history(identifier)
        #expect(history.count == 1 + 2 * rounds, "every patch saved")
        let times = history.map(\.updatedAt)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times.map(\.text))")
        #expect(try await b.orders.order(identifier)?.updatedAt == times.last)
        try await a.close()
        try await b.close()
    }
}
