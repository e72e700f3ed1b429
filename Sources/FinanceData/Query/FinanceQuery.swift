import Foundation

/// What the three query types share, so one implementation runs them all.
protocol FinanceQuery {
    associatedtype Model: Identifiable where Model.ID == UUID
    var sortDescriptors: [SortDescriptor<Model>] { get }
    var predicate: Predicate<Model>? { get }
    var limit: Int? { get }
    var offset: Int? { get }
}

extension AccountQuery: FinanceQuery {}
extension AccountBalanceQuery: FinanceQuery {}
extension TransactionQuery: FinanceQuery {}
