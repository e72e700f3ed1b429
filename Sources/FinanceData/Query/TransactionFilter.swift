import Foundation

/// Common transaction criteria as one `Predicate` that runs in SQL: only the criteria given are
/// included. A server addition (FinanceKit has none), used by `orders finance transactions`.
///
/// ```swift
/// let filter = TransactionFilter(accountID: account, statuses: [.pending], since: lastWeek)
/// let query = TransactionQuery(predicate: filter.predicate, limit: 50)
/// ```
///
/// Dates filter on `postedDate ?? transactionDate` (``Transaction/effectiveDate``):
/// `since ≤ date < until`.
public struct TransactionFilter: Sendable, Hashable {
    public var accountID: UUID?
    public var statuses: [TransactionStatus]
    public var transactionTypes: [TransactionType]
    public var merchantCategoryCodes: [MerchantCategoryCode]
    /// Exactly this merchant name.
    public var merchantName: String?
    public var since: Date?
    public var until: Date?

    public init(
        accountID: UUID? = nil, statuses: [TransactionStatus] = [], transactionTypes: [TransactionType] = [],
        merchantCategoryCodes: [MerchantCategoryCode] = [], merchantName: String? = nil, since: Date? = nil, until: Date? = nil
    ) {
        self.accountID = accountID
        self.statuses = statuses
        self.transactionTypes = transactionTypes
        self.merchantCategoryCodes = merchantCategoryCodes
        self.merchantName = merchantName
        self.since = since
        self.until = until
    }

    private typealias Variable = PredicateExpressions.Variable<Transaction>
    private typealias Condition = (Variable) -> any StandardPredicateExpression<Bool>

    /// The criteria joined with `&&`; nil when there are none.
    public var predicate: Predicate<Transaction>? {
        var conditions: [Condition] = []
        if let accountID {
            conditions.append {
                PredicateExpressions.build_Equal(
                    lhs: Self.keyPath($0, \.accountID), rhs: PredicateExpressions.build_Arg(accountID))
            }
        }
        if !statuses.isEmpty {
            let statuses = statuses
            conditions.append {
                PredicateExpressions.build_contains(PredicateExpressions.build_Arg(statuses), Self.keyPath($0, \.status))
            }
        }
        if !transactionTypes.isEmpty {
            let types = transactionTypes
            conditions.append {
                PredicateExpressions.build_contains(PredicateExpressions.build_Arg(types), Self.keyPath($0, \.transactionType))
            }
        }
        if !merchantCategoryCodes.isEmpty {
            let codes = merchantCategoryCodes
            conditions.append { variable in
                PredicateExpressions.build_NilCoalesce(
                    lhs: PredicateExpressions.build_flatMap(Self.keyPath(variable, \.merchantCategoryCode)) { code in
                        PredicateExpressions.build_contains(PredicateExpressions.build_Arg(codes), code)
                    }, rhs: PredicateExpressions.build_Arg(false))
            }
        }
        if let merchantName {
            conditions.append {
                PredicateExpressions.build_Equal(
                    lhs: Self.keyPath($0, \.merchantName), rhs: PredicateExpressions.build_Arg(Optional(merchantName)))
            }
        }
        if let since {
            conditions.append {
                PredicateExpressions.build_Comparison(
                    lhs: Self.keyPath($0, \.effectiveDate), rhs: PredicateExpressions.build_Arg(since), op: .greaterThanOrEqual)
            }
        }
        if let until {
            conditions.append {
                PredicateExpressions.build_Comparison(
                    lhs: Self.keyPath($0, \.effectiveDate), rhs: PredicateExpressions.build_Arg(until), op: .lessThan)
            }
        }
        guard let first = conditions.first else { return nil }
        let rest = conditions.dropFirst()
        return Predicate<Transaction>({ variable in
            var combined: any StandardPredicateExpression<Bool> = first(variable)
            for next in rest { combined = Self.and(combined, next(variable)) }
            return combined
        })
    }

    private static func keyPath<T>(
        _ variable: Variable, _ path: KeyPath<Transaction, T> & Sendable
    ) -> PredicateExpressions.KeyPath<Variable, T> {
        PredicateExpressions.build_KeyPath(root: variable, keyPath: path)
    }

    private static func and(
        _ lhs: some StandardPredicateExpression<Bool>, _ rhs: some StandardPredicateExpression<Bool>
    ) -> any StandardPredicateExpression<Bool> {
        PredicateExpressions.build_Conjunction(lhs: lhs, rhs: rhs)
    }
}
