import Foundation
import GRDB
import StorageContract
import Synchronization
import Testing
import WalletOrders
import WalletStorage

@testable import WalletSQLite

@Suite("Access changes and their history records are one transaction")
struct AccessChangeRecordingTests {
    struct RecorderFailed: Error {}

    final class Recorded: Sendable {
        let changes = Mutex<[AccountAccessChange]>([])
    }

    static let client: ClientIdentifier = "com.example.budget"
    static let checking = UUID(uuidString: "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B") ?? UUID()
    static let card = UUID(uuidString: "9C8B7A6F-5E4D-4C3B-8A29-1F0E9D8C7B6A") ?? UUID()

    static func repository(failing: Bool, recorded: Recorded = Recorded()) throws -> SQLAccessRepository {
        let backend = try SQLiteFixtures.backend()
        return SQLAccessRepository(executor: backend.executor) { change, _ in
            if failing { throw RecorderFailed() }
            recorded.changes.withLock { $0.append(change) }
        }
    }

    @Test("when the record cannot be written, the grant is not made either")
    func failedRecordRollsBack() async throws {
        let repository = try Self.repository(failing: true)
        await #expect(throws: StorageError.self) {
            try await repository.grant([AccountGrant(accountID: Self.checking)], to: Self.client, at: Date())
        }
        let access = try await repository.access(for: Self.client)
        #expect(access.status == .notDetermined)
        #expect(access.accounts.isEmpty)
    }

    @Test("each write reports exactly the accounts it began or stopped sharing")
    func reportsTheDifference() async throws {
        let recorded = Recorded()
        let repository = try Self.repository(failing: false, recorded: recorded)
        let client = Self.client
        let time = Date(timeIntervalSince1970: 1_790_000_000)
        try await repository.grant([AccountGrant(accountID: Self.checking)], to: client, at: time)
        // Checking again (a new earliest date) is not newly shared; the card is.
        try await repository.grant(
            [AccountGrant(accountID: Self.checking, earliestDate: time), AccountGrant(accountID: Self.card)],
            to: client, at: time)
        try await repository.revoke(client, accounts: [Self.card, UUID()], at: time)
        #expect(
            recorded.changes.withLock { $0 } == [
                AccountAccessChange(client: client, shared: [Self.checking], time: time),
                AccountAccessChange(client: client, shared: [Self.card], time: time),
                AccountAccessChange(client: client, withdrawn: [Self.card], time: time),
            ])
    }
}
