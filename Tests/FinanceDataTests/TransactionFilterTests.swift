import FinanceData
import Foundation
import Testing

@Suite("TransactionFilter: criteria as one predicate, fully translated")
struct TransactionFilterTests {
    @Test("every combination of criteria translates fully to SQL")
    func translates() {
        let account = UUID()
        let filters = [
            TransactionFilter(accountID: account), TransactionFilter(statuses: [.pending, .booked]),
            TransactionFilter(transactionTypes: [.fee]),
            TransactionFilter(merchantCategoryCodes: [MerchantCategoryCode(rawValue: 5411)]),
            TransactionFilter(since: Date()), TransactionFilter(until: Date()),
            TransactionFilter(
                accountID: account, statuses: [.booked], transactionTypes: [.atm, .fee],
                merchantCategoryCodes: [MerchantCategoryCode(rawValue: 1)],
                since: Date(timeIntervalSince1970: 0), until: Date()),
        ]
        for filter in filters {
            let plan = TransactionQuery(predicate: filter.predicate).plan
            #expect(plan.exact, "\(filter)")
            #expect(plan.filter != .always)
        }
        #expect(TransactionFilter().predicate == nil)
    }
}
