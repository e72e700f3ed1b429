import Foundation
import Hummingbird
import Logging
import OrderStorage
import OrdersService
import StorageContract
import TestArchiveTable
import WalletCore
import WalletOrders
import WalletPostgres

/// A store with orders of two types, for the service tests: the small test order (`ORDER-1`),
/// one with an identifier that is not a UUID and needs percent-encoding, and one of a second
/// order type. All carry the sources' `authenticationToken`.
struct ServiceFixture {
    static let shopType = TestOrderArchive.orderTypeIdentifier
    static let otherType = "order.com.example.other"
    static let token = "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b"
    static let oddIdentifier = "order 7/ü?#%"
    /// An APNs device token as devices send them: 64 hex digits.
    static let pushToken = String(repeating: "0a1b2c3d", count: 8)

    let directory: URL
    let storePath: String
    let wallet: WalletStore
    let shopV1: Data
    let shopV2: Data

    /// - Parameter backend: where the store is; a new SQLite file in the fixture's folder when nil.
    static func make(seed: Bool = true, backend: (any StorageBackend)? = nil) async throws -> ServiceFixture {
        let directory = try TemporaryDirectory.make("service")
        let storePath = directory.appendingPathComponent("orders.sqlite").path
        let configuration = WalletConfiguration(
            verifier: try TestOrderArchive.verifier(), clock: { TestOrderArchive.now }, logger: Logger(label: "test"))
        let wallet =
            try backend.map { WalletStore(backend: $0, configuration: configuration) }
            ?? WalletStore(path: storePath, configuration: configuration)
        let fixture = ServiceFixture(
            directory: directory, storePath: storePath, wallet: wallet, shopV1: try TestOrderArchive.make(),
            shopV2: try TestOrderArchive.make(updatedAt: "2026-02-01T08:00:00Z"))
        if seed {
            _ = try await wallet.orders.saveOrder(signedArchive: fixture.shopV1)
            _ = try await wallet.orders.saveOrder(signedArchive: try TestOrderArchive.make(orderIdentifier: oddIdentifier))
            _ = try await wallet.orders.saveOrder(signedArchive: try otherTypeArchive())
        }
        return fixture
    }

    static func otherTypeArchive(updatedAt: String = "2026-01-15T09:30:00Z") throws -> Data {
        try TestOrderArchive.make(orderIdentifier: "OTHER-1", updatedAt: updatedAt, signer: "other-type") {
            $0["orderTypeIdentifier"] = otherType
        }
    }

    /// The web service URL the test orders name: the shop's own, allowed for its type.
    static let shopWebServiceURL = "https://shop.example.com/wallet/"

    /// The service, logging errors only (request lines would drown the test output); authored
    /// versions of the shop type may keep naming ``shopWebServiceURL``.
    func service(limits: ServiceLimits = .default) -> OrdersService {
        var logger = Logger(label: "test.serve")
        logger.logLevel = .error
        return OrdersService(
            wallet: wallet,
            configuration: .init(
                limits: limits, logger: logger, allowedWebServiceURLs: [Self.shopType: [Self.shopWebServiceURL]]))
    }

    /// The test PKI's signing identity for the shop type: authoring signs with it.
    static func addSigningIdentity(to wallet: WalletStore) async throws {
        _ = try await wallet.addSigningIdentity(
            orderTypeIdentifier: shopType, certificate: try TestArchiveTable.data("pki/order.pem"),
            key: .file(path: TestArchiveTable.directory.appendingPathComponent("pki/order.key").path, passphrase: nil),
            intermediates: [try TestArchiveTable.data("pki/wwdr.pem")])
    }

    /// A new store for an `orders serve` process on `backend` — `sqlite`, or a PostgreSQL route of
    /// ``TestPostgres/routes`` — opened here too, and the arguments that name it to the process
    /// (`--store PATH` or `--database URL`).
    static func serveStore(_ backend: String) async throws -> (wallet: WalletStore, location: [String]) {
        let configuration = WalletConfiguration(verifier: try TestOrderArchive.verifier(), logger: Logger(label: "test"))
        if backend == "sqlite" {
            let store = try TemporaryDirectory.make("serve-store").appendingPathComponent("orders.sqlite").path
            return (try WalletStore(path: store, configuration: configuration), ["--store", store])
        }
        var url = try await TestPostgres.newDatabase(route: backend)
        var served = url
        // Session pooling keeps a server session per client connection for as long as the
        // connection lives: the pools of everything that uses the database together — the
        // service's and this test's own store, two instances — are sized to the pooler's pool
        // per database (10 in Scripts/with-postgres.sh), as docs/scaling-out.md says to. Pools
        // over it wait, under load, for a session never given back (the 30-PATCH test waited past
        // its deadline with 10 + 10).
        if backend == "session" { (served.poolSize, url.poolSize) = (8, 2) }
        return (
            WalletStore(backend: try await PostgresBackend.open(url), configuration: configuration),
            ["--database", served.redacted]
        )
    }

    /// `/`-separated path segments, each percent-encoded as a path segment must be.
    static func path(_ segments: String...) -> String {
        "/" + segments.map { $0.addingPercentEncoding(withAllowedCharacters: .segment) ?? $0 }.joined(separator: "/")
    }
}

extension CharacterSet {
    static let segment: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "/?#%;")
        return set
    }()
}
