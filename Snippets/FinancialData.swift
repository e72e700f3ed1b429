// snippet.hide
// FinancialData: import, grant, query, follow history.
import Foundation
import WalletOrders

func financialData(
    wallet: WalletStore, feedData: Data, checking: UUID, novemberFirst: Date, savedToken initial: FinanceStore.HistoryToken?,
    apply: ([Transaction], [Transaction], [UUID]) throws -> Void
) async throws {
    var savedToken = initial
    // snippet.show
    // snippet.import
    let summary = try await wallet.importFeed(feedData)  // all or nothing; unknown keys → summary.warnings
    // snippet.end
    // snippet.show
    // snippet.grant
    try await wallet.grant([AccountGrant(accountID: checking, earliestDate: novemberFirst)], to: "com.example.budget")
    let store = wallet.financeStore(for: "com.example.budget")
    // snippet.end
    // snippet.show
    // snippet.query
    let booked = TransactionStatus.booked
    let recent = try await store.transactions(
        query: TransactionQuery(
            sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)],
            predicate: #Predicate { $0.accountID == checking && $0.status == booked },
            limit: 50))
    // snippet.end
    // snippet.show
    // snippet.history
    for try await changes in store.transactionHistory(forAccountID: checking, since: savedToken, isMonitoring: true) {
        try apply(changes.inserted, changes.updated, changes.deleted)
        savedToken = changes.newToken  // persist after applying
    }
    // snippet.end
    // snippet.hide
    _ = (summary, recent, savedToken)
}
