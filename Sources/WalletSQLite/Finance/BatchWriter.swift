import FinanceData
import Foundation
import GRDB
import WalletCore
import WalletPrimitives
import WalletStorage

/// Applies one ``FinanceBatch`` inside a write transaction: upserts that compare with the stored
/// record (an identical record writes nothing), deletions that cascade from accounts to their
/// balances and transactions, and a change record for everything that changed.
///
/// Every statement is a cached one: a batch runs the same few statements once per record, and
/// compiling them each time cost more than running them (GRDB authorizes every column a
/// statement reads while SQLite compiles it).
struct BatchWriter {
    let db: Database
    let recordedAt: Int64
    var summary = FinanceImportSummary()
    /// Account currencies looked up during this batch; dropped whenever an account changes.
    private var currencies: [UUID: String] = [:]

    init(db: Database, recordedAt: Int64) {
        self.db = db
        self.recordedAt = recordedAt
    }

    // MARK: Accounts

    mutating func upsert(_ account: Account) throws {
        currencies = [:]
        let arguments: StatementArguments = [
            account.id.uuidString, account.kind.rawValue, TextKey.normalized(account.displayName),
            TextKey.normalized(account.institutionName), account.currencyCode,
            account.openingDate.map(Microseconds.since1970),
            try FinanceRows.record(account),
        ]
        if let stored = try Data.fetchOne(
            statement("SELECT record FROM accounts WHERE id = ?"), arguments: [account.id.uuidString])
        {
            guard try FinanceRows.decode(Account.self, stored) != account else { return summary.accounts.unchanged += 1 }
            try execute(
                """
                UPDATE accounts SET id = ?, kind = ?, displayNameKey = ?, institutionNameKey = ?, currencyCode = ?, openingDate = ?,
                record = ? WHERE id = ?
                """, arguments + [account.id.uuidString])
            try record(.accounts, account.id, .update)
            summary.accounts.updated += 1
        } else {
            try execute(
                """
                INSERT INTO accounts (id, kind, displayNameKey, institutionNameKey, currencyCode, openingDate, record)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments)
            try record(.accounts, account.id, .insert)
            summary.accounts.inserted += 1
        }
    }

    mutating func deleteAccount(_ id: UUID) throws {
        currencies = [:]
        guard try Bool.fetchOne(statement("SELECT 1 FROM accounts WHERE id = ?"), arguments: [id.uuidString]) == true else {
            return
        }
        for balance in try String.fetchAll(statement("SELECT id FROM balances WHERE accountID = ?"), arguments: [id.uuidString]) {
            try UUID(uuidString: balance).map { try deleteBalance($0) }
        }
        for transaction in try String.fetchAll(
            statement("SELECT id FROM transactions WHERE accountID = ?"), arguments: [id.uuidString])
        {
            try UUID(uuidString: transaction).map { try deleteTransaction($0) }
        }
        try execute("DELETE FROM accounts WHERE id = ?", [id.uuidString])
        try record(.accounts, id, .delete)
        summary.accounts.deleted += 1
    }

    // MARK: Balances

    mutating func upsert(_ balance: AccountBalance) throws {
        let currency = try accountCurrency(balance.accountID, for: "balance \(balance.id.uuidString)")
        guard balance.currencyCode == currency, balance.available.map({ $0.amount.currencyCode == currency }) ?? true,
            balance.booked.map({ $0.amount.currencyCode == currency }) ?? true
        else {
            throw FinanceDataError.inconsistentRecord(
                "balance \(balance.id.uuidString)", reason: "its currency differs from its account's (\(currency))")
        }
        let arguments: StatementArguments = [
            balance.id.uuidString, balance.accountID.uuidString, balance.available.map { Microseconds.since1970($0.asOfDate) },
            balance.booked.map { Microseconds.since1970($0.asOfDate) }, balance.currencyCode, try FinanceRows.record(balance),
        ]
        if let stored = try Data.fetchOne(
            statement("SELECT record FROM balances WHERE id = ?"), arguments: [balance.id.uuidString])
        {
            let previous = try FinanceRows.decode(AccountBalance.self, stored)
            guard previous != balance else { return summary.balances.unchanged += 1 }
            try execute(
                "UPDATE balances SET id = ?, accountID = ?, availableAsOf = ?, bookedAsOf = ?, currencyCode = ?, record = ? WHERE id = ?",
                arguments + [balance.id.uuidString])
            try recordMove(previous.accountID, balance.accountID, balance.id, stream: HistoryStream.balances(accountID:))
            summary.balances.updated += 1
        } else {
            try execute(
                "INSERT INTO balances (id, accountID, availableAsOf, bookedAsOf, currencyCode, record) VALUES (?, ?, ?, ?, ?, ?)",
                arguments)
            try record(.balances(accountID: balance.accountID), balance.id, .insert)
            summary.balances.inserted += 1
        }
    }

    mutating func deleteBalance(_ id: UUID) throws {
        guard let accountID = try accountID(of: id, in: "balances") else { return }
        try execute("DELETE FROM balances WHERE id = ?", [id.uuidString])
        try record(.balances(accountID: accountID), id, .delete)
        summary.balances.deleted += 1
    }

    // MARK: Transactions

    mutating func upsert(_ transaction: Transaction) throws {
        let currency = try accountCurrency(transaction.accountID, for: "transaction \(transaction.id.uuidString)")
        guard transaction.transactionAmount.currencyCode == currency else {
            throw FinanceDataError.inconsistentRecord(
                "transaction \(transaction.id.uuidString)",
                reason:
                    "its amount is in \(transaction.transactionAmount.currencyCode), its account in \(currency) (use foreignCurrencyAmount)"
            )
        }
        let stored = try Row.fetchOne(
            statement("SELECT \(FinanceRows.transactionColumns) FROM transactions WHERE id = ?"),
            arguments: [transaction.id.uuidString])
        if let stored {
            let previous = try FinanceRows.transaction(stored)
            guard previous != transaction else { return summary.transactions.unchanged += 1 }
            try execute("DELETE FROM transactions WHERE id = ?", [transaction.id.uuidString])
            try insertRow(transaction)
            try recordMove(
                previous.accountID, transaction.accountID, transaction.id, stream: HistoryStream.transactions(accountID:))
            summary.transactions.updated += 1
        } else {
            try insertRow(transaction)
            try record(.transactions(accountID: transaction.accountID), transaction.id, .insert)
            summary.transactions.inserted += 1
        }
    }

    mutating func deleteTransaction(_ id: UUID) throws {
        guard let accountID = try accountID(of: id, in: "transactions") else { return }
        try execute("DELETE FROM transactions WHERE id = ?", [id.uuidString])
        try record(.transactions(accountID: accountID), id, .delete)
        summary.transactions.deleted += 1
    }

    private func insertRow(_ transaction: Transaction) throws {
        try execute(Self.insertTransaction, StatementArguments(FinanceRows.arguments(transaction)))
    }

    private static let insertTransaction = """
        INSERT INTO transactions (\(FinanceRows.transactionColumns)) \
        VALUES (\(Array(repeating: "?", count: 18).joined(separator: ", ")))
        """

    // MARK: Helpers

    /// The account's currency; the account must exist (in the store or earlier in the batch).
    private mutating func accountCurrency(_ accountID: UUID, for record: String) throws -> String {
        if let currency = currencies[accountID] { return currency }
        guard
            let currency = try String.fetchOne(
                statement("SELECT currencyCode FROM accounts WHERE id = ?"), arguments: [accountID.uuidString])
        else { throw FinanceDataError.unknownAccountReference(record, accountID: accountID) }
        currencies[accountID] = currency
        return currency
    }

    /// The account a stored balance or transaction belongs to; nil when it is not stored.
    private func accountID(of id: UUID, in table: String) throws -> UUID? {
        try String.fetchOne(statement("SELECT accountID FROM \(table) WHERE id = ?"), arguments: [id.uuidString])
            .flatMap(UUID.init(uuidString:))
    }

    /// An update: in place, or, when the record moved to another account, a delete from the
    /// old account's stream and an insert into the new one's.
    private func recordMove(_ from: UUID, _ to: UUID, _ id: UUID, stream: (UUID) -> HistoryStream) throws {
        if from == to {
            try record(stream(to), id, .update)
        } else {
            try record(stream(from), id, .delete)
            try record(stream(to), id, .insert)
        }
    }

    private func record(_ stream: HistoryStream, _ id: UUID, _ kind: FinanceChange.Kind) throws {
        try execute(
            "INSERT INTO financeChanges (stream, entityID, kind, client, recordedAt) VALUES (?, ?, ?, NULL, ?)",
            [stream.description, id.uuidString, kind.rawValue, recordedAt])
    }

    private func statement(_ sql: String) throws -> Statement {
        try db.cachedStatement(sql: sql)
    }

    private func execute(_ sql: String, _ arguments: StatementArguments) throws {
        try statement(sql).execute(arguments: arguments)
    }
}
