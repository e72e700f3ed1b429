import Foundation
import Testing

@testable import FinanceData

/// Feeds are read as strictly as order.json: one meaning per document, nothing dropped silently.
@Suite("Feeds: duplicate keys, unknown keys, NUL, size")
struct FeedStrictnessTests {
    static let account =
        #""id": "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B", "type": "asset", "displayName": "Everyday", "institutionName": "Bank", "currencyCode": "EUR""#
    static let transaction =
        #""id": "A1000000-0000-4000-8000-000000000001", "accountID": "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B", "transactionAmount": {"amount": "4.20", "currencyCode": "EUR"}, "creditDebitIndicator": "debit", "transactionDescription": "Coffee", "transactionType": "pointOfSale", "status": "booked", "transactionDate": "2026-11-19T08:00:00Z""#

    static func read(
        _ json: String, maximumSize: Int = FinanceFeed.defaultMaximumSize
    ) throws(FinanceDataError) -> FinanceFeed.Contents {
        try FinanceFeed.read(Data(json.utf8), maximumSize: maximumSize)
    }

    @Test(
        "a duplicate key is feed.invalid naming the record, wherever it is",
        arguments: [
            (#"{"accounts": [{\#(account), "type": "liability"}]}"#, "accounts[0]"),
            (#"{"accounts": [{\#(account)}], "accounts": []}"#, ""),
            (
                #"{"transactions": [{\#(transaction.replacingOccurrences(of: #""amount": "4.20""#, with: #""amount": "1", "amount": "4.20""#))}]}"#,
                "transactions[0].transactionAmount"
            ),
        ])
    func duplicateKeys(_ json: String, _ path: String) throws {
        #expect {
            try Self.read(json)
        } throws: { error in
            guard case .invalidFeed(let where_, let reason) = error as? FinanceDataError else { return false }
            return where_ == path && reason.contains("duplicate key")
        }
    }

    @Test("unknown keys become warnings with their paths, and the records are still read")
    func unknownKeys() throws {
        let contents = try Self.read(
            #"{"accounts": [{\#(Self.account), "colour": "blue"}], "transactions": [{\#(Self.transaction.replacingOccurrences(of: #""currencyCode": "EUR"}"#, with: #""currencyCode": "EUR", "cents": 420}"#))}], "source": "bank"}"#
        )
        #expect(contents.batch.accounts.count == 1 && contents.batch.transactions.count == 1)
        #expect(contents.warnings.map(\.path) == ["accounts[0].colour", "transactions[0].transactionAmount.cents", "source"])
    }

    @Test("more than 50 unknown keys are listed as 50 and a count")
    func manyUnknownKeys() throws {
        let accounts = (0..<60).map { index in
            #"{"id": "6F2A3C8E-1B4D-4E5F-9A7B-\#(String(format: "%012d", index))", "type": "asset", "displayName": "A", "institutionName": "B", "currencyCode": "EUR", "extra": 1}"#
        }
        let contents = try Self.read(#"{"accounts": [\#(accounts.joined(separator: ","))]}"#)
        #expect(contents.warnings.count == 51)
        #expect(contents.warnings.last?.message == "10 more unknown keys were ignored")
    }

    @Test("U+0000 in any string is feed.invalid at its path (SQLite would cut the text there)")
    func nul() throws {
        let json =
            #"{"transactions": [{\#(Self.transaction.replacingOccurrences(of: "Coffee", with: "Coffee\\u0000 and cake"))}]}"#
        #expect(
            throws: FinanceDataError.invalidFeed(
                path: "transactions[0].transactionDescription", reason: "the text contains U+0000")
        ) {
            try Self.read(json)
        }
    }

    @Test("a feed over the size limit is feed.tooLarge before anything is parsed")
    func tooLarge() throws {
        #expect(throws: FinanceDataError.feedTooLarge(size: 30, limit: 10)) {
            try Self.read(String(repeating: " ", count: 30), maximumSize: 10)
        }
        #expect(FinanceDataError.feedTooLarge(size: nil, limit: 10).code == "feed.tooLarge")
    }
}
