import FinanceData
import Foundation
import StorageContract
import Testing
@_spi(Testing) import WalletOrders
import WalletPostgres

/// History monitoring (`isMonitoring: true`) on PostgreSQL polls, as on SQLite: no LISTEN/NOTIFY.
@Suite("Monitoring on PostgreSQL", .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
struct PostgresMonitoringTests {
    @Test("changes another backend (another process's pool) imports arrive while monitoring, until cancelled")
    func monitoring() async throws {
        let url = try await TestPostgres.newDatabase()
        let wallet = WalletStore(backend: try await PostgresBackend.open(url), configuration: try WalletFixtures.configuration())
        try await wallet.importFeed(WalletFixtures.feed())
        try await wallet.grant([AccountGrant(accountID: WalletFixtures.checking)], to: WalletFixtures.client)
        let other = WalletStore(backend: try await PostgresBackend.open(url), configuration: try WalletFixtures.configuration())
        try await HistoryTests.expectMonitoring(wallet.financeStore(for: WalletFixtures.client)) {
            try await other.importFeed(WalletFixtures.feed("finance-feed-update.json"))
        }
        try await other.backend.close()
        try await wallet.backend.close()
    }
}
