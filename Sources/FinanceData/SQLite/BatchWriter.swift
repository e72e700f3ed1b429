import Foundation
import GRDB
import WalletCore

/// Applies one ``FinanceBatch`` inside a write transaction: upserts that compare with the stored
/// record (an identical record writes nothing), deletions that cascade from accounts to their
/// balances and transactions, and a change record for everything that changed.
struct BatchWriter {
    let db: Database
    let recordedAt: Int64
    var summary = FinanceImportSummary()

    init(db: Database, recordedAt: Int64) {
        self.db = db
        self.recordedAt = recordedAt
    }

    // MARK: Accounts

    mutating func upsert(_ account: Account) throws {
        let arguments: StatementArguments = [
            account.id.uuidString, account.kind.rawValue, FinanceRows.normalized(account.displayName),
            FinanceRows.normalized(account.institutionName), account.currencyCode,
            account.openingDate.map(Microseconds.since1970),
            try FinanceRows.record(account),
        ]
        if let stored = try Data.fetchOne(db, sql: "SELECT record FROM accounts WHERE id = ?", arguments: [account.id.uuidString])
        {
            guard try FinanceRows.decode(Account.self, stored) != account else { return summary.accounts.unchanged += 1 }
            try db.execute(
                sql: """
                    UPDATE accounts SET id = ?, kind = ?, displayNameKey = ?, institutionNameKey = ?, currencyCode = ?, openingDate = ?,
                    record = ? WHERE id = ?
                    """, arguments: arguments + [account.id.uuidString])
            try record(.accounts, account.id, .update)
            summary.accounts.updated += 1
        } else {
            try db.execute(
                sql: """
                    INSERT INTO accounts (id, kind, displayNameKey, institutionNameKey, currencyCode, openingDate, record)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: arguments)
            try record(.accounts, account.id, .insert)
            summary.accounts.inserted += 1
        }
    }

    mutating func deleteAccount(_ id: UUID) throws {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM accounts WHERE id = ?", arguments: [id.uuidString]) == true else {
            return
        }
        for balance in try String.fetchAll(db, sql: "SELECT id FROM balances WHERE accountID = ?", arguments: [id.uuidString]) {
            try UUID(uuidString: balance).map { try deleteBalance($0) }
        }
        for transaction in try String.fetchAll(
            db, sql: "SELECT id FROM transactions WHERE accountID = ?", arguments: [id.uuidString])
        {
            try UUID(uuidString: transaction).map { try deleteTransaction($0) }
        }
        try db.execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [id.uuidString])
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
        let stored = try Row.fetchOne(
            db, sql: "SELECT accountID, record FROM balances WHERE id = ?", arguments: [balance.id.uuidString])
        if let stored {
            let previous = try FinanceRows.decode(AccountBalance.self, stored["record"])
            guard previous != balance else { return summary.balances.unchanged += 1 }
            try db.execute(
                sql:
                    "UPDATE balances SET id = ?, accountID = ?, availableAsOf = ?, bookedAsOf = ?, currencyCode = ?, record = ? WHERE id = ?",
                arguments: arguments + [balance.id.uuidString])
            try recordMove(previous.accountID, balance.accountID, balance.id, stream: HistoryStream.balances(accountID:))
            summary.balances.updated += 1
        } else {
            try db.execute(
                sql:
                    "INSERT INTO balances (id, accountID, availableAsOf, bookedAsOf, currencyCode, record) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: arguments)
            try record(.balances(accountID: balance.accountID), balance.id, .insert)
            summary.balances.inserted += 1
        }
    }

    mutating func deleteBalance(_ id: UUID) throws {
        guard
            let account = try String.fetchOne(db, sql: "SELECT accountID FROM balances WHERE id = ?", arguments: [id.uuidString]),
            let accountID = UUID(uuidString: account)
        else { return }
        try db.execute(sql: "DELETE FROM balances WHERE id = ?", arguments: [id.uuidString])
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
            db, sql: "SELECT \(FinanceRows.transactionColumns) FROM transactions WHERE id = ?",
            arguments: [transaction.id.uuidString])
        if let stored {
            let previous = try FinanceRows.transaction(stored)
            guard previous != transaction else { return summary.transactions.unchanged += 1 }
            try db.execute(sql: "DELETE FROM transactions WHERE id = ?", arguments: [transaction.id.uuidString])
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
        guard
            let account = try String.fetchOne(
                db, sql: "SELECT accountID FROM transactions WHERE id = ?", arguments: [id.uuidString]),
            let accountID = UUID(uuidString: account)
        else { return }
        try db.execute(sql: "DELETE FROM transactions WHERE id = ?", arguments: [id.uuidString])
        try record(.transactions(accountID: accountID), id, .delete)
        summary.transactions.deleted += 1
    }

    private func insertRow(_ transaction: Transaction) throws {
        let placeholders = Array(repeating: "?", count: 18).joined(separator: ", ")
        try db.execute(
            sql: "INSERT INTO transactions (\(FinanceRows.transactionColumns)) VALUES (\(placeholders))",
            arguments: FinanceRows.arguments(transaction))
    }

    // MARK: Helpers

    /// The account's currency; the account must exist (in the store or earlier in the batch).
    private func accountCurrency(_ accountID: UUID, for record: String) throws -> String {
        guard
            let currency = try String.fetchOne(
                db, sql: "SELECT currencyCode FROM accounts WHERE id = ?", arguments: [accountID.uuidString])
        else { throw FinanceDataError.unknownAccountReference(record, accountID: accountID) }
        return currency
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
        try db.execute(
            sql: "INSERT INTO financeChanges (stream, entityID, kind, client, recordedAt) VALUES (?, ?, ?, NULL, ?)",
            arguments: [stream.description, id.uuidString, kind.rawValue, recordedAt])
    }
}
