import FinanceData
import Foundation
import Testing

@Suite("TransactionSort: FIELD or FIELD:desc, one reading for the CLI and the data API")
struct TransactionSortTests {
    @Test("every listed field reads, ascending unless :desc")
    func reads() throws {
        for field in TransactionSort.fields {
            let ascending = try TransactionSort(field)
            #expect(ascending.field == field && ascending.ascending)
            #expect(try TransactionSort(field + ":asc") == ascending)
            let descending = try TransactionSort(field + ":desc")
            #expect(descending.field == field && !descending.ascending)
            #expect(descending.descriptors.count == 1)
        }
    }

    @Test("the sort orders transactions by its field")
    func orders() throws {
        let sort = try TransactionSort("amount:desc")
        let amounts: [Decimal] = [3, 10, 1]
        let account = UUID()
        let transactions = amounts.map { amount in
            Transaction(
                id: UUID(), accountID: account, transactionAmount: CurrencyAmount(amount: amount, currencyCode: "EUR"),
                creditDebitIndicator: .debit, transactionDescription: "Coffee", originalTransactionDescription: "COFFEE",
                transactionType: .pointOfSale, status: .booked, transactionDate: Date(timeIntervalSince1970: 0))
        }
        let sorted = transactions.sorted(using: sort.descriptors)
        #expect(sorted.map(\.transactionAmount.amount) == [10, 3, 1])
    }

    @Test("an unknown field or ending is refused, naming which")
    func refuses() {
        #expect(throws: TransactionSort.Problem.unknownField("price")) { try TransactionSort("price") }
        #expect(throws: TransactionSort.Problem.unknownField("")) { try TransactionSort("") }
        #expect(throws: TransactionSort.Problem.notAnOrder("amount:down")) { try TransactionSort("amount:down") }
        #expect(throws: TransactionSort.Problem.unknownField("Amount")) { try TransactionSort("Amount:desc") }
    }
}
