import FinanceData
import Foundation
import StorageContract
import TestArchiveTable
import Testing
import WalletCore

/// A backend's query path and in-memory evaluation must return the same rows in the same order.
@Suite("Contract: queries agree with in-memory evaluation")
struct QueryEquivalenceTests {
    typealias Variable = PredicateExpressions.Variable<Transaction>
    typealias Expression = any StandardPredicateExpression<Bool>

    static func keyPath<T>(
        _ variable: Variable, _ path: KeyPath<Transaction, T> & Sendable
    ) -> PredicateExpressions.KeyPath<Variable, T> {
        PredicateExpressions.build_KeyPath(root: variable, keyPath: path)
    }

    static func value<T>(_ value: T) -> PredicateExpressions.Value<T> {
        PredicateExpressions.build_Arg(value)
    }

    static func and(_ lhs: some StandardPredicateExpression<Bool>, _ rhs: some StandardPredicateExpression<Bool>) -> Expression {
        PredicateExpressions.build_Conjunction(lhs: lhs, rhs: rhs)
    }

    static func or(_ lhs: some StandardPredicateExpression<Bool>, _ rhs: some StandardPredicateExpression<Bool>) -> Expression {
        PredicateExpressions.build_Disjunction(lhs: lhs, rhs: rhs)
    }

    static func not(_ wrapped: some StandardPredicateExpression<Bool>) -> Expression {
        PredicateExpressions.build_Negation(wrapped)
    }

    /// One random comparison over one field.
    static func atom(_ random: inout SplitMix64, data: [Transaction], accounts: [UUID]) -> (Variable) -> Expression {
        let sample = data[Int.random(in: 0..<data.count, using: &random)]
        // Stored instants exactly, instants a hair (one ulp, 0.4 µs) around them, where naive
        // rounding goes wrong, and arbitrary instants.
        let stored = sample.transactionDate
        let date: Date
        switch Int.random(in: 0..<6, using: &random) {
        case 0: date = stored
        case 1: date = Date(timeIntervalSinceReferenceDate: stored.timeIntervalSinceReferenceDate.nextUp)
        case 2: date = Date(timeIntervalSinceReferenceDate: stored.timeIntervalSinceReferenceDate.nextDown)
        case 3: date = stored.addingTimeInterval(0.000_000_4)
        case 4: date = stored.addingTimeInterval(-0.000_000_4)
        default: date = FinanceFixtures.base.addingTimeInterval(Double.random(in: 0..<(90 * 86_400), using: &random))
        }
        let operators: [PredicateExpressions.ComparisonOperator] = [
            .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual,
        ]
        let op = operators[Int.random(in: 0..<4, using: &random)]
        let status = TransactionStatus.allCases[Int.random(in: 0..<5, using: &random)]
        let statuses = TransactionStatus.allCases.filter { _ in Bool.random(using: &random) }
        let type = TransactionType.allCases[Int.random(in: 0..<17, using: &random)]
        let code = MerchantCategoryCode(rawValue: [5411, 5812, 5814, 4111, 1234][Int.random(in: 0..<5, using: &random)])
        let codes = [5411, 5812, 5814, 4111].filter { _ in Bool.random(using: &random) }.map(MerchantCategoryCode.init(rawValue:))
        let name = ["Café", "Cafe\u{301}", "Bakery", "apple", "Nobody"][Int.random(in: 0..<5, using: &random)]
        let account = accounts[Int.random(in: 0..<accounts.count, using: &random)]
        let posted = sample.postedDate
        switch Int.random(in: 0..<17, using: &random) {
        case 0: return { v in PredicateExpressions.build_Equal(lhs: keyPath(v, \.status), rhs: value(status)) }
        case 1: return { v in PredicateExpressions.build_NotEqual(lhs: keyPath(v, \.status), rhs: value(status)) }
        case 2: return { v in PredicateExpressions.build_contains(value(statuses), keyPath(v, \.status)) }
        case 3: return { v in PredicateExpressions.build_Equal(lhs: keyPath(v, \.transactionType), rhs: value(type)) }
        case 4:
            return { v in PredicateExpressions.build_Comparison(lhs: keyPath(v, \.transactionDate), rhs: value(date), op: op) }
        case 5:
            return { v in
                PredicateExpressions.build_Comparison(
                    lhs: PredicateExpressions.build_NilCoalesce(
                        lhs: keyPath(v, \.postedDate), rhs: keyPath(v, \.transactionDate)),
                    rhs: value(date), op: op)
            }
        case 6: return { v in PredicateExpressions.build_Comparison(lhs: value(date), rhs: keyPath(v, \.effectiveDate), op: op) }
        case 7:
            return { v in PredicateExpressions.build_Equal(lhs: keyPath(v, \.merchantCategoryCode), rhs: value(Optional(code))) }
        case 8:
            return { v in
                PredicateExpressions.build_NotEqual(
                    lhs: keyPath(v, \.merchantCategoryCode), rhs: PredicateExpressions.NilLiteral<MerchantCategoryCode>())
            }
        case 9:
            return { v in
                PredicateExpressions.build_NilCoalesce(
                    lhs: PredicateExpressions.build_flatMap(keyPath(v, \.merchantCategoryCode)) { wrapped in
                        PredicateExpressions.build_contains(value(codes), wrapped)
                    }, rhs: value(false))
            }
        case 10: return { v in PredicateExpressions.build_Equal(lhs: keyPath(v, \.merchantName), rhs: value(Optional(name))) }
        case 11: return { v in PredicateExpressions.build_Equal(lhs: keyPath(v, \.accountID), rhs: value(account)) }
        case 12: return { v in PredicateExpressions.build_Equal(lhs: keyPath(v, \.postedDate), rhs: value(posted)) }
        case 13:
            return { v in
                PredicateExpressions.build_Equal(lhs: keyPath(v, \.creditDebitIndicator), rhs: value(CreditDebitIndicator.debit))
            }
        case 14:
            return { v in
                PredicateExpressions.build_Equal(
                    lhs: PredicateExpressions.build_KeyPath(root: keyPath(v, \.transactionAmount), keyPath: \.currencyCode),
                    rhs: value("EUR"))
            }
        case 15:
            // Not translatable: a Decimal comparison.
            return { v in
                PredicateExpressions.build_Comparison(
                    lhs: PredicateExpressions.build_KeyPath(root: keyPath(v, \.transactionAmount), keyPath: \.amount),
                    rhs: value(Decimal(500)), op: op)
            }
        default:
            // Not translatable: a string method.
            return { v in PredicateExpressions.build_Equal(lhs: keyPath(v, \.transactionDescription), rhs: value("Purchase 7")) }
        }
    }

    static func expression(
        _ random: inout SplitMix64, depth: Int, data: [Transaction], accounts: [UUID]
    ) -> (Variable) -> Expression {
        guard depth > 0, Int.random(in: 0..<3, using: &random) > 0 else { return atom(&random, data: data, accounts: accounts) }
        let left = expression(&random, depth: depth - 1, data: data, accounts: accounts)
        let right = expression(&random, depth: depth - 1, data: data, accounts: accounts)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return { v in and(left(v), right(v)) }
        case 1: return { v in or(left(v), right(v)) }
        default: return { v in not(left(v)) }
        }
    }

    static let sorts: [[SortDescriptor<Transaction>]] = [
        [], [SortDescriptor(\.transactionDate)], [SortDescriptor(\.transactionDate, order: .reverse)],
        [SortDescriptor(\.postedDate)], [SortDescriptor(\.postedDate, order: .reverse), SortDescriptor(\.transactionDate)],
        [SortDescriptor(\.effectiveDate, order: .reverse)], [SortDescriptor(\.merchantName)],
    ]

    @Test(
        "800 random predicates, sorts, pages and grants give identical results both ways (200 through a pooler)",
        arguments: BackendFactory.all)
    func randomized(_ backend: BackendFactory) async throws {
        let sql = try await backend.make().finance
        let accounts = (0..<4).map { _ in UUID() }
        let data = FinanceFixtures.transactions(count: 600, accounts: accounts)
        _ = try await sql.apply(
            FinanceBatch(accounts: accounts.map { FinanceFixtures.asset($0) }, transactions: data), at: Date())
        // Read back the stored models: dates are whole microseconds in the store.
        let stored = try await sql.transactions(TransactionQuery(), visibleTo: FinanceFixtures.access(accounts))
        #expect(stored.count == data.count)

        var random = SplitMix64(state: 2026)
        var translated = 0
        var partial = 0
        let rounds = backend.isThroughPooler ? 200 : 800
        for round in 0..<rounds {
            let build = Self.expression(&random, depth: 3, data: stored, accounts: accounts)
            let predicate = Predicate<Transaction>({ v in build(v) })
            let sort = Self.sorts[Int.random(in: 0..<Self.sorts.count, using: &random)]
            let limit: Int? = Bool.random(using: &random) ? Int.random(in: 0..<40, using: &random) : nil
            let offset: Int? = Bool.random(using: &random) ? Int.random(in: 0..<40, using: &random) : nil
            let granted = accounts.filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
            let earliest: Date? = Bool.random(using: &random) ? stored[round % stored.count].transactionDate : nil
            let access = FinanceFixtures.access(granted, earliest: earliest)
            let query = TransactionQuery(sortDescriptors: sort, predicate: predicate, limit: limit, offset: offset)

            let plan = query.plan
            if plan.exact { translated += 1 } else if plan.filter != .always { partial += 1 }

            let viaSQL = try await sql.transactions(query, visibleTo: access).map(\.id)
            let inMemory = try await InMemoryQuery.transactions(query, in: sql, visibleTo: access).map(\.id)
            #expect(viaSQL == inMemory, "round \(round): \(plan.filter)")
            if viaSQL != inMemory { break }
        }
        // Both paths must really have been exercised.
        #expect(translated > rounds * 3 / 8, "fully translated: \(translated)")
        #expect(partial > rounds / 40, "partly translated: \(partial)")
    }
}

@Suite("Contract: TransactionFilter")
struct TransactionFilterContractTests {
    @Test("the filter selects what its criteria say", arguments: BackendFactory.all)
    func selects(_ backend: BackendFactory) async throws {
        let sql = try await backend.make().finance
        let accounts = [UUID(), UUID()]
        let data = FinanceFixtures.transactions(count: 300, accounts: accounts)
        _ = try await sql.apply(
            FinanceBatch(accounts: accounts.map { FinanceFixtures.asset($0) }, transactions: data), at: Date())
        let since = FinanceFixtures.base.addingTimeInterval(30 * 86_400)
        let filter = TransactionFilter(accountID: accounts[0], statuses: [.booked, .pending], since: since)
        let query = TransactionQuery(predicate: filter.predicate)
        let found = try await sql.transactions(query, visibleTo: FinanceFixtures.access(accounts))
        #expect(!found.isEmpty)
        #expect(
            found.allSatisfy {
                $0.accountID == accounts[0] && [.booked, .pending].contains($0.status) && $0.effectiveDate >= since
            })
        let inMemory = try await InMemoryQuery.transactions(query, in: sql, visibleTo: FinanceFixtures.access(accounts))
        #expect(found.map(\.id) == inMemory.map(\.id))
    }
}
