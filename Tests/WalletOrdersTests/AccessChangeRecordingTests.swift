import Foundation
import GRDB
import Synchronization
import Testing
import WalletOrders

@Suite("Access changes and their history records are one transaction")
struct AccessChangeRecordingTests {
    struct RecorderFailed: Error {}

    final class Recorded: Sendable {
        let changes = Mutex<[AccountAccessChange]>([])
    }

    static func repository(failing: Bool, recorded: Recorded = Recorded()) throws -> SQLiteAccessRepository {
        let pool = try StoreDatabase.open(at: WalletFixtures.path(), migrator: WalletStore.migrator)
        return SQLiteAccessRepository(database: pool) { change, _ in
            if failing { throw RecorderFailed() }
            recorded.changes.withLock { $0.append(change) }
        }
    }

    @Test("when the record cannot be written, the grant is not made either")
    func failedRecordRollsBack() async throws {
        let repository = try Self.repository(failing: true)
        await #expect(throws: StorageError.self) {
            try await repository.grant([AccountGrant(accountID: WalletFixtures.checking)], to: WalletFixtures.client, at: Date())
        }
        let access = try await repository.access(for: WalletFixtures.client)
        #expect(access.status == .notDetermined)
        #expect(access.accounts.isEmpty)
    }

    @Test("each write reports exactly the accounts it began or stopped sharing")
    func reportsTheDifference() async throws {
        let recorded = Recorded()
        let repository = try Self.repository(failing: false, recorded: recorded)
        let client = WalletFixtures.client
        let time = Date(timeIntervalSince1970: 1_790_000_000)
        try await repository.grant([AccountGrant(accountID: WalletFixtures.checking)], to: client, at: time)
        // Checking again (a new earliest date) is not newly shared; the card is.
        try await repository.grant(
            [AccountGrant(accountID: WalletFixtures.checking, earliestDate: time), AccountGrant(accountID: WalletFixtures.card)],
            to: client, at: time)
        try await repository.revoke(client, accounts: [WalletFixtures.card, UUID()], at: time)
        #expect(
            recorded.changes.withLock { $0 } == [
                AccountAccessChange(client: client, shared: [WalletFixtures.checking], time: time),
                AccountAccessChange(client: client, shared: [WalletFixtures.card], time: time),
                AccountAccessChange(client: client, withdrawn: [WalletFixtures.card], time: time),
            ])
    }
}
