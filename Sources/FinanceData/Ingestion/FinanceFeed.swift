import Foundation
import WalletCore
import WalletPrimitives

/// The JSON feed through which financial data enters a server: upserts of accounts, balances and
/// transactions, and deletions. Parsing turns it into a ``FinanceBatch`` or throws, naming the
/// record; ``FinanceDataRepository/apply(_:at:)`` then stores it in one transaction.
///
/// ```json
/// {
///   "accounts": [{"id": "…", "type": "asset", "displayName": "Everyday", "institutionName": "Example Bank",
///                 "currencyCode": "EUR", "openingDate": "2024-01-01T00:00:00Z"}],
///   "balances": [{"id": "…", "accountID": "…",
///                 "booked": {"amount": {"amount": "1234.56", "currencyCode": "EUR"},
///                            "asOfDate": "2026-11-01T00:00:00Z", "creditDebitIndicator": "credit"}}],
///   "transactions": [{"id": "…", "accountID": "…", "transactionAmount": {"amount": "12.50", "currencyCode": "EUR"},
///                     "creditDebitIndicator": "debit", "transactionDescription": "Coffee", "merchantName": "Café",
///                     "merchantCategoryCode": 5814, "transactionType": "pointOfSale", "status": "pending",
///                     "transactionDate": "2026-11-02T08:15:00Z"}],
///   "deletions": {"accounts": [], "balances": [], "transactions": ["…"]}
/// }
/// ```
///
/// Every key is optional at the top level. Amounts are decimal strings and never negative (the
/// indicator gives the direction); dates are RFC 3339 with an offset, stored to the microsecond;
/// enums are case names; `originalTransactionDescription` defaults to `transactionDescription`.
/// A zero balance is stored as a credit, as FinanceKit does.
public enum FinanceFeed {
    /// The largest feed read by default: 64 MiB, about 150,000 transactions. Split larger
    /// backfills, or pass a larger `maximumSize`.
    public static let defaultMaximumSize = 64 << 20

    /// A parsed feed and what was noticed but did not reject it.
    public struct Contents: Sendable {
        public var batch: FinanceBatch
        public var warnings: [FinanceFeedWarning]
    }

    /// Parses a feed: strictly (duplicate keys and U+0000 in strings are rejected, naming the
    /// record), with unknown keys returned as warnings.
    ///
    /// - Throws: ``FinanceDataError/feedTooLarge(size:limit:)`` over `maximumSize` bytes;
    ///   ``FinanceDataError/invalidFeed(path:reason:)`` and the other cases naming the record.
    public static func read(_ data: Data, maximumSize: Int = defaultMaximumSize) throws(FinanceDataError) -> Contents {
        guard data.count <= maximumSize else { throw .feedTooLarge(size: data.count, limit: maximumSize) }
        let tree: JSONValue
        do {
            tree = try JSONParser(maximumDepth: 16).parse(data).value
        } catch {
            throw .invalidFeed(path: error.jsonPath.description, reason: error.sentence(about: "the feed"))
        }
        let warnings = try FinanceFeedKeys.check(tree)
        return Contents(batch: try decode(data), warnings: warnings)
    }

    /// ``read(_:maximumSize:)`` without the warnings.
    public static func parse(_ data: Data) throws(FinanceDataError) -> FinanceBatch {
        try read(data).batch
    }

    private static func decode(_ data: Data) throws(FinanceDataError) -> FinanceBatch {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let error as DecodingError {
            throw Self.describe(error)
        } catch {
            throw .invalidFeed(path: "", reason: "the feed is not JSON: \(error.localizedDescription)")
        }
        var batch = FinanceBatch()
        var seen: Set<String> = []
        func unique(_ kind: String, _ id: UUID, _ name: String) throws(FinanceDataError) {
            guard seen.insert("\(kind)/\(id)").inserted else {
                throw .inconsistentRecord(name, reason: "the id appears twice in the feed")
            }
        }
        for (index, account) in (document.accounts ?? []).enumerated() {
            let name = "accounts[\(index)] (id \(account.id.uuidString))"
            try unique("account", account.id, name)
            batch.accounts.append(try account.model(name))
        }
        for (index, balance) in (document.balances ?? []).enumerated() {
            let name = "balances[\(index)] (id \(balance.id.uuidString))"
            try unique("balance", balance.id, name)
            batch.balances.append(try balance.model(name))
        }
        for (index, transaction) in (document.transactions ?? []).enumerated() {
            let name = "transactions[\(index)] (id \(transaction.id.uuidString))"
            try unique("transaction", transaction.id, name)
            batch.transactions.append(try transaction.model(name))
        }
        batch.deletedAccounts = document.deletions?.accounts ?? []
        batch.deletedBalances = document.deletions?.balances ?? []
        batch.deletedTransactions = document.deletions?.transactions ?? []
        return batch
    }

    private static func describe(_ error: DecodingError) -> FinanceDataError {
        func path(_ codingPath: [any CodingKey]) -> String {
            JSONPath(codingPath.map { key in key.intValue.map(JSONPath.Component.index) ?? .key(key.stringValue) }).description
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .invalidFeed(path: path(context.codingPath + [key]), reason: "a required key is missing")
        case .typeMismatch(let type, let context):
            return .invalidFeed(path: path(context.codingPath), reason: "expected \(type)")
        case .valueNotFound(let type, let context):
            return .invalidFeed(path: path(context.codingPath), reason: "expected \(type), found null")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .invalidFeed(path: "", reason: "the feed is not valid JSON (\(context.debugDescription))")
        case .dataCorrupted(let context):
            return .invalidFeed(path: path(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .invalidFeed(path: "", reason: "\(error)")
        }
    }

    // MARK: - The document

    struct Document: Decodable {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case accounts, balances, transactions, deletions
        }

        var accounts: [FeedAccount]?
        var balances: [FeedBalance]?
        var transactions: [FeedTransaction]?
        var deletions: Deletions?
    }

    struct Deletions: Decodable {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case accounts, balances, transactions
        }

        var accounts: [UUID]?
        var balances: [UUID]?
        var transactions: [UUID]?
    }

    struct Amount: Decodable {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case amount, currencyCode
        }

        var amount: String
        var currencyCode: String

        func model(_ record: String, _ field: String) throws(FinanceDataError) -> CurrencyAmount {
            guard let value = Decimal(exactLiteral: amount) else {
                throw .inconsistentRecord(record, reason: "\(field).amount: \(AmountLiteral.problem(amount) ?? "not an amount")")
            }
            guard value >= 0 else {
                throw .inconsistentRecord(
                    record, reason: "\(field).amount is negative; amounts are never negative (the indicator gives the direction)")
            }
            return CurrencyAmount(
                amount: value, currencyCode: try currency(currencyCode, record, "\(field).currencyCode"),
                scale: Decimal.fractionDigits(ofLiteral: amount))
        }
    }

    struct FeedAccount: Decodable {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, type, displayName, accountDescription, institutionName, currencyCode, openingDate, creditInformation
        }

        var id: UUID
        var type: Account.Kind
        var displayName: String
        var accountDescription: String?
        var institutionName: String
        var currencyCode: String
        var openingDate: String?
        var creditInformation: CreditInformation?

        struct CreditInformation: Decodable {
            enum CodingKeys: String, CodingKey, CaseIterable {
                case creditLimit, nextPaymentDueDate, minimumNextPaymentAmount, overduePaymentAmount
            }

            var creditLimit: Amount?
            var nextPaymentDueDate: String?
            var minimumNextPaymentAmount: Amount?
            var overduePaymentAmount: Amount?
        }

        func model(_ record: String) throws(FinanceDataError) -> Account {
            let currencyCode = try currency(self.currencyCode, record, "currencyCode")
            let opening = try openingDate.map { (value) throws(FinanceDataError) -> Date in try date(value, record, "openingDate")
            }
            switch type {
            case .asset:
                if creditInformation != nil {
                    throw .inconsistentRecord(record, reason: "an asset account has no creditInformation")
                }
                return .asset(
                    AssetAccount(
                        id: id, displayName: displayName, accountDescription: accountDescription,
                        institutionName: institutionName,
                        currencyCode: currencyCode, openingDate: opening))
            case .liability:
                let info = creditInformation
                let credit = AccountCreditInformation(
                    creditLimit: try info?.creditLimit?.model(record, "creditInformation.creditLimit"),
                    nextPaymentDueDate: try info?.nextPaymentDueDate.map { (value) throws(FinanceDataError) -> Date in
                        try date(value, record, "creditInformation.nextPaymentDueDate")
                    },
                    minimumNextPaymentAmount: try info?.minimumNextPaymentAmount?.model(
                        record, "creditInformation.minimumNextPaymentAmount"),
                    overduePaymentAmount: try info?.overduePaymentAmount?.model(record, "creditInformation.overduePaymentAmount"))
                return .liability(
                    LiabilityAccount(
                        id: id, displayName: displayName, accountDescription: accountDescription,
                        institutionName: institutionName,
                        currencyCode: currencyCode, openingDate: opening, creditInformation: credit))
            }
        }
    }

    struct FeedBalance: Decodable {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, accountID, available, booked
        }

        var id: UUID
        var accountID: UUID
        var available: Part?
        var booked: Part?

        struct Part: Decodable {
            enum CodingKeys: String, CodingKey, CaseIterable {
                case amount, asOfDate, creditDebitIndicator
            }

            var amount: Amount
            var asOfDate: String
            var creditDebitIndicator: CreditDebitIndicator

            func model(_ record: String, _ field: String) throws(FinanceDataError) -> Balance {
                let amount = try amount.model(record, "\(field).amount")
                // FinanceKit considers a zero balance a credit balance.
                let indicator: CreditDebitIndicator = amount.amount == 0 ? .credit : creditDebitIndicator
                return Balance(
                    amount: amount, asOfDate: try date(asOfDate, record, "\(field).asOfDate"), creditDebitIndicator: indicator)
            }
        }

        func model(_ record: String) throws(FinanceDataError) -> AccountBalance {
            let current = CurrentBalance(
                available: try available?.model(record, "available"), booked: try booked?.model(record, "booked"))
            guard let current else { throw .inconsistentRecord(record, reason: "a balance needs available, booked, or both") }
            if let available = current.available, let booked = current.booked,
                available.amount.currencyCode != booked.amount.currencyCode
            {
                throw .inconsistentRecord(record, reason: "available and booked are in different currencies")
            }
            return AccountBalance(id: id, accountID: accountID, currentBalance: current)
        }
    }

    struct FeedTransaction: Decodable {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, accountID, transactionAmount, foreignCurrencyAmount, foreignCurrencyExchangeRate, creditDebitIndicator,
                transactionDescription, originalTransactionDescription, merchantCategoryCode, merchantName, transactionType,
                status, transactionDate, postedDate
        }

        var id: UUID
        var accountID: UUID
        var transactionAmount: Amount
        var foreignCurrencyAmount: Amount?
        var foreignCurrencyExchangeRate: String?
        var creditDebitIndicator: CreditDebitIndicator
        var transactionDescription: String
        var originalTransactionDescription: String?
        var merchantCategoryCode: Int16?
        var merchantName: String?
        var transactionType: TransactionType
        var status: TransactionStatus
        var transactionDate: String
        var postedDate: String?

        func model(_ record: String) throws(FinanceDataError) -> Transaction {
            if let code = merchantCategoryCode, !(0...9999).contains(code) {
                throw .inconsistentRecord(record, reason: "merchantCategoryCode \(code) is not an ISO 18245 code (0…9999)")
            }
            let rate = try foreignCurrencyExchangeRate.map { (text) throws(FinanceDataError) -> Decimal in
                guard let value = Decimal(exactLiteral: text), value > 0 else {
                    throw .inconsistentRecord(
                        record, reason: "foreignCurrencyExchangeRate \(MessageText.quote(text)) is not a positive decimal")
                }
                return value
            }
            return Transaction(
                id: id, accountID: accountID, transactionAmount: try transactionAmount.model(record, "transactionAmount"),
                foreignCurrencyAmount: try foreignCurrencyAmount?.model(record, "foreignCurrencyAmount"),
                foreignCurrencyExchangeRate: rate, creditDebitIndicator: creditDebitIndicator,
                transactionDescription: transactionDescription,
                originalTransactionDescription: originalTransactionDescription ?? transactionDescription,
                merchantCategoryCode: merchantCategoryCode.map(MerchantCategoryCode.init(rawValue:)), merchantName: merchantName,
                transactionType: transactionType, status: status,
                transactionDate: try date(transactionDate, record, "transactionDate"),
                postedDate: try postedDate.map { (value) throws(FinanceDataError) -> Date in try date(value, record, "postedDate")
                })
        }
    }

    // MARK: - Fields

    static func date(_ text: String, _ record: String, _ field: String) throws(FinanceDataError) -> Date {
        guard let timestamp = RFC3339Timestamp(text) else {
            throw .inconsistentRecord(
                record, reason: "\(field) \(MessageText.quote(text)) is not an RFC 3339 date-time with an offset")
        }
        return Microseconds.date(timestamp.microsecondsSinceEpoch)
    }

    static func currency(_ code: String, _ record: String, _ field: String) throws(FinanceDataError) -> String {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
            throw .inconsistentRecord(record, reason: "\(field) \(MessageText.quote(code)) is not a 3-letter currency code")
        }
        return code
    }
}
