import FinanceData
import Foundation
import GRDB
import WalletCore
import WalletPrimitives

/// Models ⇄ rows. Dates go through ``Microseconds``; amounts are exact decimal text; strings
/// that queries compare have an NFC-normalized `…Key` column.
enum FinanceRows {
    static let transactionColumns = """
        id, accountID, amount, currencyCode, foreignAmount, foreignCurrencyCode, foreignCurrencyExchangeRate, \
        creditDebitIndicator, transactionDescription, originalTransactionDescription, merchantCategoryCode, merchantName, \
        merchantNameKey, transactionType, status, transactionDate, postedDate, effectiveDate
        """

    static func arguments(_ transaction: Transaction) -> StatementArguments {
        [
            transaction.id.uuidString, transaction.accountID.uuidString, transaction.transactionAmount.literal,
            transaction.transactionAmount.currencyCode, transaction.foreignCurrencyAmount?.literal,
            transaction.foreignCurrencyAmount?.currencyCode, transaction.foreignCurrencyExchangeRate?.description,
            Int64(transaction.creditDebitIndicator.rawValue), transaction.transactionDescription,
            transaction.originalTransactionDescription, transaction.merchantCategoryCode.map { Int64($0.rawValue) },
            transaction.merchantName, transaction.merchantName.map(TextKey.normalized),
            Int64(transaction.transactionType.rawValue),
            Int64(transaction.status.rawValue), Microseconds.since1970(transaction.transactionDate),
            transaction.postedDate.map(Microseconds.since1970), Microseconds.since1970(transaction.effectiveDate),
        ]
    }

    static func transaction(_ row: Row) throws -> Transaction {
        func decimal(_ index: Int) throws -> Decimal? {
            guard let text: String = row[index] else { return nil }
            guard let value = Decimal(exactLiteral: text) else { throw CorruptRow(column: index, value: text) }
            return value
        }
        func currencyAmount(_ index: Int, currency: String?) throws -> CurrencyAmount? {
            guard let text: String = row[index], let currency else { return nil }
            guard let amount = CurrencyAmount(literal: text, currencyCode: currency) else {
                throw CorruptRow(column: index, value: text)
            }
            return amount
        }
        func named<T: NamedCases>(_ index: Int, as type: T.Type) throws -> T {
            let raw: Int64 = row[index]
            guard let value = T(rawValue: Int16(truncatingIfNeeded: raw)) else {
                throw CorruptRow(column: index, value: String(raw))
            }
            return value
        }
        guard let id = UUID(uuidString: row[0]), let accountID = UUID(uuidString: row[1]),
            let amount = try currencyAmount(2, currency: row[3])
        else {
            throw CorruptRow(column: 0, value: row[0])
        }
        let foreign = try currencyAmount(4, currency: row[5])
        return Transaction(
            id: id, accountID: accountID, transactionAmount: amount,
            foreignCurrencyAmount: foreign, foreignCurrencyExchangeRate: try decimal(6),
            creditDebitIndicator: try named(7, as: CreditDebitIndicator.self), transactionDescription: row[8],
            originalTransactionDescription: row[9],
            merchantCategoryCode: (row[10] as Int64?).map { MerchantCategoryCode(rawValue: Int16(truncatingIfNeeded: $0)) },
            merchantName: row[11], transactionType: try named(13, as: TransactionType.self),
            status: try named(14, as: TransactionStatus.self),
            transactionDate: Microseconds.date(row[15]), postedDate: (row[16] as Int64?).map(Microseconds.date))
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static func record<T: Encodable>(_ value: T) throws -> Data {
        try encoder.encode(value)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }

    struct CorruptRow: Error, CustomStringConvertible {
        var column: Int
        var value: String
        var description: String { "the store holds an unreadable value \(MessageText.quote(value)) (column \(column))" }
    }
}
