// snippet.hide
// GettingStarted: opening a store, trusting another root, choosing a backend.
import Foundation
import WalletOrders
import WalletPostgres
import WalletSQLite

func openStore() throws {
    // snippet.show
    // snippet.open
    let wallet = try WalletStore(
        path: "/var/lib/shop/wallet.sqlite",
        configuration: WalletConfiguration(
            availability: DataAvailability(available: [.orders, .financialData]),
            verifier: OrderVerifier()))  // Apple's roots, default limits, the system clock
    // snippet.end
    // snippet.hide
    _ = wallet
}

func trustAnotherRoot() throws {
    // snippet.show
    // snippet.trust
    // Apple's roots, plus a private or test root (PEM or DER), e.g. the shipped test archives' PKI.
    let testRoot = try Data(contentsOf: URL(fileURLWithPath: "TestArchives/pki/root.pem"))
    let verifier = OrderVerifier(trustStore: try TrustStore.apple.adding(roots: [testRoot]))
    let wallet = try WalletStore(path: "orders.sqlite", configuration: WalletConfiguration(verifier: verifier))
    // snippet.end
    // snippet.hide
    _ = wallet
}

func otherBackends(path: String) async throws {
    // snippet.show
    // snippet.sqlite
    // SQLite with options of its own (the WalletSQLite product; `WalletStore(path:)` needs no import).
    let backend = try SQLiteBackend(path: path, options: SQLiteBackend.Options(createIfMissing: false))
    let wallet = WalletStore(backend: backend, configuration: WalletConfiguration())
    // snippet.end
    // snippet.show
    // snippet.postgres
    // PostgreSQL (the WalletPostgres product), shared by any number of processes; migrated on open.
    let url = try PostgresDatabaseURL("postgres://wallet@db.internal/wallet?sslmode=verify-full")
    let shared = WalletStore(backend: try await PostgresBackend.open(url), configuration: WalletConfiguration())
    // snippet.end
    // snippet.hide
    _ = (wallet, shared)
}
