import FinanceData
import Foundation
import WalletCore
import WalletPrimitives

/// Models ⇄ rows, for every SQL backend. Dates go through ``WalletPrimitives/Microseconds``;
/// amounts are exact decimal text; strings that queries compare have an NFC-normalized `…Key`
/// column; accounts and balances are stored whole as a JSON `record` beside those columns.
package enum FinanceRows {
    package static let transactionColumns = """
        id, accountID, amount, currencyCode, foreignAmount, foreignCurrencyCode, foreignCurrencyExchangeRate, \
        creditDebitIndicator, transactionDescription, originalTransactionDescription, merchantCategoryCode, merchantName, \
        merchantNameKey, transactionType, status, transactionDate, postedDate, effectiveDate
        """

    /// The values of ``transactionColumns``, in order.
    package static func arguments(_ transaction: Transaction) -> [SQLValue] {
        func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
        func integer(_ value: Int64?) -> SQLValue { value.map(SQLValue.integer) ?? .null }
        return [
            .text(transaction.id.uuidString), .text(transaction.accountID.uuidString),
            .text(transaction.transactionAmount.literal),
            .text(transaction.transactionAmount.currencyCode), text(transaction.foreignCurrencyAmount?.literal),
            text(transaction.foreignCurrencyAmount?.currencyCode), text(transaction.foreignCurrencyExchangeRate?.description),
            .integer(Int64(transaction.creditDebitIndicator.rawValue)), .text(transaction.transactionDescription),
            .text(transaction.originalTransactionDescription),
            integer(transaction.merchantCategoryCode.map { Int64($0.rawValue) }),
            text(transaction.merchantName), text(transaction.merchantName.map(TextKey.normalized)),
            .integer(Int64(transaction.transactionType.rawValue)),
            .integer(Int64(transaction.status.rawValue)), .integer(Microseconds.since1970(transaction.transactionDate)),
            integer(transaction.postedDate.map(Microseconds.since1970)),
            .integer(Microseconds.since1970(transaction.effectiveDate)),
        ]
    }

    /// A transaction from a row of ``transactionColumns``.
    package static func transaction(_ row: any SQLRow) throws -> Transaction {
        func decimal(_ index: Int) throws -> Decimal? {
            guard let text = try row.optionalText(index) else { return nil }
            guard let value = Decimal(exactLiteral: text) else { throw CorruptRow(column: index, value: text) }
            return value
        }
        func currencyAmount(_ index: Int, currency: String?) throws -> CurrencyAmount? {
            guard let text = try row.optionalText(index), let currency else { return nil }
            guard let amount = CurrencyAmount(literal: text, currencyCode: currency) else {
                throw CorruptRow(column: index, value: text)
            }
            return amount
        }
        func named<T: NamedCases>(_ index: Int, as type: T.Type) throws -> T {
            let raw = try row.integer(index)
            guard let value = T(rawValue: Int16(truncatingIfNeeded: raw)) else {
                throw CorruptRow(column: index, value: String(raw))
            }
            return value
        }
        let idText = try row.text(0)
        guard let id = UUID(uuidString: idText), let accountID = UUID(uuidString: try row.text(1)),
            let amount = try currencyAmount(2, currency: try row.text(3))
        else {
            throw CorruptRow(column: 0, value: idText)
        }
        let foreign = try currencyAmount(4, currency: try row.optionalText(5))
        return Transaction(
            id: id, accountID: accountID, transactionAmount: amount,
            foreignCurrencyAmount: foreign, foreignCurrencyExchangeRate: try decimal(6),
            creditDebitIndicator: try named(7, as: CreditDebitIndicator.self), transactionDescription: try row.text(8),
            originalTransactionDescription: try row.text(9),
            merchantCategoryCode: try row.optionalInteger(10).map {
                MerchantCategoryCode(rawValue: Int16(truncatingIfNeeded: $0))
            },
            merchantName: try row.optionalText(11), transactionType: try named(13, as: TransactionType.self),
            status: try named(14, as: TransactionStatus.self),
            transactionDate: Microseconds.date(try row.integer(15)),
            postedDate: try row.optionalInteger(16).map(Microseconds.date))
    }

    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    package static func record<T: Encodable>(_ value: T) throws -> Data {
        try encoder.encode(value)
    }

    package static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }

    package struct CorruptRow: Error, CustomStringConvertible {
        package var column: Int
        package var value: String
        package init(column: Int, value: String) {
            self.column = column
            self.value = value
        }
        package var description: String { "the store holds an unreadable value \(MessageText.quote(value)) (column \(column))" }
    }
}
