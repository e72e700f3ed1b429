import FinanceData
import Foundation
import WalletCore
import WalletPrimitives

/// Applies one ``FinanceData/FinanceBatch`` inside a unit of work, for every SQL backend: upserts
/// that compare with the stored record (an identical record writes nothing), deletions that
/// cascade from accounts to their balances and transactions, and a change record for everything
/// that changed. Stored rows are read with the dialect's locking read, so on PostgreSQL a
/// concurrent import of the same record waits and then compares with what this one wrote.
struct FinanceBatchWriter {
    let connection: any SQLConnection
    let log: FinanceChangeLog
    let recordedAt: Int64
    var summary = FinanceImportSummary()
    /// Account currencies looked up during this batch; dropped whenever an account changes.
    private var currencies: [UUID: String] = [:]
    private let reads: Reads

    init(connection: any SQLConnection, dialect: any SQLDialect, recordedAt: Int64) {
        self.connection = connection
        self.log = FinanceChangeLog(dialect: dialect)
        self.recordedAt = recordedAt
        reads = Reads(dialect)
    }

    /// The reads of a batch with the dialect's row locks, written once per batch rather than
    /// once per record.
    private struct Reads {
        let account, accountExists, accountCurrency, balance, balanceAccount, transaction, transactionAccount: String

        init(_ dialect: any SQLDialect) {
            let lock = dialect.lockingRead
            account = "SELECT record FROM accounts WHERE id = $1 \(lock)"
            accountExists = "SELECT 1 FROM accounts WHERE id = $1 \(lock)"
            accountCurrency = "SELECT currencyCode FROM accounts WHERE id = $1 \(dialect.sharingRead)"
            balance = "SELECT record FROM balances WHERE id = $1 \(lock)"
            balanceAccount = "SELECT accountID, availableAsOf, bookedAsOf FROM balances WHERE id = $1 \(lock)"
            transaction = "SELECT \(FinanceRows.transactionColumns) FROM transactions WHERE id = $1 \(lock)"
            transactionAccount = "SELECT accountID, transactionDate, NULL FROM transactions WHERE id = $1 \(lock)"
        }
    }

    // MARK: Accounts

    mutating func upsert(_ account: Account) async throws {
        currencies = [:]
        let arguments: [SQLValue] = [
            .text(account.id.uuidString), .text(account.kind.rawValue), .text(TextKey.normalized(account.displayName)),
            .text(TextKey.normalized(account.institutionName)), .text(account.currencyCode), .instant(account.openingDate),
            .blob(try FinanceRows.record(account)),
        ]
        let stored = try await connection.fetchOne(
            reads.account, [.text(account.id.uuidString)]
        ) { try $0.bytes(0) }
        if let stored {
            guard try FinanceRows.decode(Account.self, stored) != account else { return summary.accounts.unchanged += 1 }
            try await connection.execute(
                """
                UPDATE accounts SET kind = $2, displayNameKey = $3, institutionNameKey = $4, currencyCode = $5, openingDate = $6,
                record = $7 WHERE id = $1
                """, arguments)
            try await record(.accounts, account.id, .update)
            summary.accounts.updated += 1
        } else {
            try await connection.execute(
                """
                INSERT INTO accounts (id, kind, displayNameKey, institutionNameKey, currencyCode, openingDate, record)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """, arguments)
            try await record(.accounts, account.id, .insert)
            summary.accounts.inserted += 1
        }
    }

    mutating func deleteAccount(_ id: UUID) async throws {
        currencies = [:]
        guard
            try await connection.returnsRow(reads.accountExists, [.text(id.uuidString)])
        else { return }
        for balance in try await ids("SELECT id FROM balances WHERE accountID = $1 ORDER BY id", id) {
            try await deleteBalance(balance)
        }
        for transaction in try await ids("SELECT id FROM transactions WHERE accountID = $1 ORDER BY id", id) {
            try await deleteTransaction(transaction)
        }
        try await connection.execute("DELETE FROM accounts WHERE id = $1", [.text(id.uuidString)])
        try await record(.accounts, id, .delete)
        summary.accounts.deleted += 1
    }

    // MARK: Balances

    mutating func upsert(_ balance: AccountBalance) async throws {
        let currency = try await accountCurrency(balance.accountID, for: "balance \(balance.id.uuidString)")
        guard balance.currencyCode == currency, balance.available.map({ $0.amount.currencyCode == currency }) ?? true,
            balance.booked.map({ $0.amount.currencyCode == currency }) ?? true
        else {
            throw FinanceDataError.inconsistentRecord(
                "balance \(balance.id.uuidString)", reason: "its currency differs from its account's (\(currency))")
        }
        let arguments: [SQLValue] = [
            .text(balance.id.uuidString), .text(balance.accountID.uuidString), .instant(balance.available?.asOfDate),
            .instant(balance.booked?.asOfDate), .text(balance.currencyCode), .blob(try FinanceRows.record(balance)),
        ]
        let stored = try await connection.fetchOne(
            reads.balance, [.text(balance.id.uuidString)]
        ) { try $0.bytes(0) }
        if let stored {
            let previous = try FinanceRows.decode(AccountBalance.self, stored)
            guard previous != balance else { return summary.balances.unchanged += 1 }
            try await connection.execute(
                "UPDATE balances SET accountID = $2, availableAsOf = $3, bookedAsOf = $4, currencyCode = $5, record = $6 WHERE id = $1",
                arguments)
            try await recordMove(
                previous.accountID, balance.accountID, balance.id, stream: HistoryStream.balances(accountID:),
                earliestDate: [previous.available?.asOfDate, previous.booked?.asOfDate].compactMap { $0 }.min())
            summary.balances.updated += 1
        } else {
            try await connection.execute(
                "INSERT INTO balances (id, accountID, availableAsOf, bookedAsOf, currencyCode, record) VALUES ($1, $2, $3, $4, $5, $6)",
                arguments)
            try await record(.balances(accountID: balance.accountID), balance.id, .insert)
            summary.balances.inserted += 1
        }
    }

    mutating func deleteBalance(_ id: UUID) async throws {
        guard let stored = try await located(id, reading: reads.balanceAccount) else { return }
        try await connection.execute("DELETE FROM balances WHERE id = $1", [.text(id.uuidString)])
        try await record(.balances(accountID: stored.account), id, .delete, earliestDate: stored.earliestDate)
        summary.balances.deleted += 1
    }

    // MARK: Transactions

    mutating func upsert(_ transaction: Transaction) async throws {
        let currency = try await accountCurrency(transaction.accountID, for: "transaction \(transaction.id.uuidString)")
        guard transaction.transactionAmount.currencyCode == currency else {
            throw FinanceDataError.inconsistentRecord(
                "transaction \(transaction.id.uuidString)",
                reason:
                    "its amount is in \(transaction.transactionAmount.currencyCode), its account in \(currency) (use foreignCurrencyAmount)"
            )
        }
        let stored = try await connection.fetchOne(reads.transaction, [.text(transaction.id.uuidString)], FinanceRows.transaction)
        if let previous = stored {
            guard previous != transaction else { return summary.transactions.unchanged += 1 }
            try await connection.execute("DELETE FROM transactions WHERE id = $1", [.text(transaction.id.uuidString)])
            try await connection.execute(Self.insertTransaction, FinanceRows.arguments(transaction))
            try await recordMove(
                previous.accountID, transaction.accountID, transaction.id, stream: HistoryStream.transactions(accountID:),
                earliestDate: previous.transactionDate)
            summary.transactions.updated += 1
        } else {
            try await connection.execute(Self.insertTransaction, FinanceRows.arguments(transaction))
            try await record(.transactions(accountID: transaction.accountID), transaction.id, .insert)
            summary.transactions.inserted += 1
        }
    }

    mutating func deleteTransaction(_ id: UUID) async throws {
        guard let stored = try await located(id, reading: reads.transactionAccount) else { return }
        try await connection.execute("DELETE FROM transactions WHERE id = $1", [.text(id.uuidString)])
        try await record(.transactions(accountID: stored.account), id, .delete, earliestDate: stored.earliestDate)
        summary.transactions.deleted += 1
    }

    private static let insertTransaction = """
        INSERT INTO transactions (\(FinanceRows.transactionColumns)) \
        VALUES (\(SQLPlaceholders.list(1...18)))
        """

    // MARK: Helpers

    /// The account's currency; the account must exist (in the store or earlier in the batch).
    /// Its row is locked (shared) so that it cannot be deleted under the record being written.
    private mutating func accountCurrency(_ accountID: UUID, for record: String) async throws -> String {
        if let currency = currencies[accountID] { return currency }
        guard
            let currency = try await connection.text(reads.accountCurrency, [.text(accountID.uuidString)])
        else { throw FinanceDataError.unknownAccountReference(record, accountID: accountID) }
        currencies[accountID] = currency
        return currency
    }

    /// The account a stored balance or transaction belongs to, and the earliest of its dates a
    /// grant applies to (`statement` reads the account and up to two dates); nil when it is not
    /// stored.
    private func located(_ id: UUID, reading statement: String) async throws -> (account: UUID, earliestDate: Date?)? {
        try await connection.fetchOne(statement, [.text(id.uuidString)]) { row -> (UUID, Date?)? in
            guard let account = UUID(uuidString: try row.text(0)) else { return nil }
            let dates = try [row.optionalInteger(1), row.optionalInteger(2)].compactMap { $0 }
            return (account, dates.min().map(Microseconds.date))
        } ?? nil
    }

    /// An update: in place, or, when the record moved to another account, a delete from the
    /// old account's stream (with the earliest of its dates before the move) and an insert into
    /// the new one's.
    private func recordMove(
        _ from: UUID, _ to: UUID, _ id: UUID, stream: (UUID) -> HistoryStream, earliestDate: Date?
    ) async throws {
        if from == to {
            try await record(stream(to), id, .update)
        } else {
            try await record(stream(from), id, .delete, earliestDate: earliestDate)
            try await record(stream(to), id, .insert)
        }
    }

    private func record(
        _ stream: HistoryStream, _ id: UUID, _ kind: FinanceChange.Kind, earliestDate: Date? = nil
    ) async throws {
        try await log.record(stream, id, kind, earliestDate: earliestDate, recordedAt: recordedAt, on: connection)
    }

    private func ids(_ sql: String, _ id: UUID) async throws -> [UUID] {
        try await connection.fetch(sql, [.text(id.uuidString)]) { try $0.text(0) }.compactMap(UUID.init(uuidString:))
    }
}
