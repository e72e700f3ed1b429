import FinanceData
import Foundation
import StorageContract
import Testing
import WalletCore

/// The transaction search (the picker's, and `q=` of the data API) finds the same rows on every
/// backend as the rule says in Swift: a substring, ASCII letters in either case, every other
/// character exactly — whatever the search text holds (SQL's `%`, `_`, quotes).
@Suite("Contract: transaction text search")
struct TextSearchContractTests {
    /// The rule, written out independently of the library: lower ASCII letters, compare bytes.
    static func contains(_ text: String?, _ needle: String) -> Bool {
        func lowered(_ text: String) -> [UInt8] { text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 } }
        let haystack = lowered(text ?? "")
        let pattern = lowered(needle)
        guard haystack.count >= pattern.count else { return false }
        return (0...(haystack.count - pattern.count)).contains { haystack[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    @Test("needles of every kind find exactly the rows the rule finds, in the query's order", arguments: BackendFactory.all)
    func equivalence(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let account = UUID()
        var transactions = FinanceFixtures.transactions(count: 300, accounts: [account])
        let descriptions = [
            "100% Organic", "under_score", "O'Brien's", "ÉCOLE Fees", "école fees", "Straße", "STRASSE", "Tab\there",
            "Café Latte",
            "CAFÉ LATTE", "plain",
        ]
        for index in transactions.indices {
            transactions[index].transactionDescription = descriptions[index % descriptions.count] + " \(index)"
        }
        _ = try await backend.finance.apply(
            FinanceBatch(accounts: [FinanceFixtures.asset(account)], transactions: transactions), at: FinanceFixtures.base)
        let access = FinanceFixtures.access([account])
        for needle in [
            "%", "_", "'", "organic", "ORGANIC", "école", "ÉCOLE", "é", "straße", "strasse", "café", "Cafe\u{301}", "apple",
            "pos 1",
            "\t", "nothing like it", "purchase",
        ] {
            var query = TransactionQuery(sortDescriptors: [SortDescriptor(\.effectiveDate, order: .reverse)])
            query.textSearch = needle
            let found = try await backend.finance.transactions(query, visibleTo: access).map(\.id)
            let expected = transactions.filter { transaction in
                [transaction.transactionDescription, transaction.originalTransactionDescription, transaction.merchantName]
                    .contains { Self.contains($0, needle) }
            }.sorted { ($0.effectiveDate, $0.id.uuidString) > ($1.effectiveDate, $1.id.uuidString) }.map(\.id)
            #expect(found == expected, "\(needle)")
            // With a predicate the backend cannot run, the search still holds (finished in memory).
            query.predicate = #Predicate<Transaction> { $0.transactionDescription.count > 0 }
            #expect(try await backend.finance.transactions(query, visibleTo: access).map(\.id) == expected, "\(needle)")
        }
    }
}
