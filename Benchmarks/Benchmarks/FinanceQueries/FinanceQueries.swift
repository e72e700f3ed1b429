import Benchmark
import Foundation
import GRDB
import WalletOrders

// transactions(query:) over 1,000,000 transactions, and history catch-up over 100,000 changes,
// each beside the obvious alternative measured in the same run:
//
// - a query translated to SQL vs the same query evaluated in memory over every visible
//   transaction (what a store without translation does);
// - catching up from a token vs starting again without one (`since: nil`) and vs re-reading the
//   account's transactions with one query.
//
// Seeded stores are kept in $TMPDIR/wallet-orders-benchmarks and reused while they hold the
// expected data (seeding the million takes a few minutes).

let benchmarks: @Sendable () -> Void = {
    let query = BenchmarkQueries.self

    for (name, transactionQuery) in [
        ("one account, newest first, limit 50", query.oneAccount),
        ("booked since June, newest first, limit 100", query.bookedSinceJune),
        ("hotels (MCC 7011) pending or booked, by effectiveDate desc, limit 50", query.hotels(sortedBy: \.effectiveDate)),
        ("hotels (MCC 7011) pending or booked, by transactionDate desc, limit 50", query.hotels(sortedBy: \.transactionDate)),
        ("description contains \"Hotel\" (partly in memory), newest first, limit 50", query.partlyInMemory),
    ] {
        Benchmark(
            "transactions(query:) \(name), 1,000,000 transactions",
            configuration: .init(
                metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(5), maxIterations: 2_000)
        ) { benchmark, finance in
            for _ in benchmark.scaledIterations {
                blackHole(try await finance.transactions(query: transactionQuery))
            }
        } setup: {
            try await FinanceSeed.queryStore()
        }
    }

    // The same query on a copy without finance.v3's index: the plan before issue 11.
    Benchmark(
        "transactions(query:) hotels (MCC 7011) pending or booked, by transactionDate desc, limit 50, without the category-by-transactionDate index, 1,000,000 transactions",
        configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(5), maxIterations: 50)
    ) { benchmark, finance in
        for _ in benchmark.scaledIterations {
            blackHole(try await finance.transactions(query: query.hotels(sortedBy: \.transactionDate)))
        }
    } setup: {
        try await FinanceSeed.importState(withIndex: false).wallet.financeStore(for: FinanceSeed.client)
    }

    // The write cost of finance.v3's index (merchantCategoryCode, transactionDate): the same
    // imports into copies of the store with and without it.
    for withIndex in [true, false] {
        Benchmark(
            "import 10,000 new transactions into 1,000,000, \(withIndex ? "with" : "without") the category-by-transactionDate index",
            configuration: .init(
                metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(30), maxIterations: 10)
        ) { benchmark, state in
            for _ in benchmark.scaledIterations {
                blackHole(try await state.importNext())
            }
        } setup: {
            try await FinanceSeed.importState(withIndex: withIndex)
        }
    }

    Benchmark(
        "in memory (fetch all, filter, sort, limit) booked since June, newest first, limit 100, 1,000,000 transactions",
        configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(30), maxIterations: 3)
    ) { benchmark, finance in
        for _ in benchmark.scaledIterations {
            blackHole(try await BenchmarkQueries.inMemory(query.bookedSinceJune, finance))
        }
    } setup: {
        try await FinanceSeed.queryStore()
    }

    Benchmark(
        "history catch-up from a token over 100,000 changes",
        configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(10), maxIterations: 20)
    ) { benchmark, history in
        for _ in benchmark.scaledIterations {
            blackHole(try await history.catchUp(since: history.token))
        }
    } setup: {
        try await FinanceSeed.historyStore()
    }

    Benchmark(
        "history catch-up from a token over the last 100 changes",
        configuration: .init(
            metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(5), maxIterations: 5_000)
    ) { benchmark, history in
        for _ in benchmark.scaledIterations {
            blackHole(try await history.catchUp(since: history.lastHundred))
        }
    } setup: {
        try await FinanceSeed.historyStore()
    }

    Benchmark(
        "history without a token (since: nil) after 100,000 changes",
        configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(10), maxIterations: 20)
    ) { benchmark, history in
        for _ in benchmark.scaledIterations {
            blackHole(try await history.catchUp(since: nil))
        }
    } setup: {
        try await FinanceSeed.historyStore()
    }

    Benchmark(
        "re-reading the account with transactions(query:) after 100,000 changes",
        configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(10), maxIterations: 20)
    ) { benchmark, history in
        for _ in benchmark.scaledIterations {
            blackHole(try await history.finance.transactions(query: TransactionQuery()).count)
        }
    } setup: {
        try await FinanceSeed.historyStore()
    }
}

/// The queries measured; each has a predicate, a sort and a limit.
enum BenchmarkQueries {
    static let june = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01T00:00:00Z

    static var bookedSinceJune: TransactionQuery {
        let booked = TransactionStatus.booked
        let june = june
        return TransactionQuery(
            sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)],
            predicate: #Predicate { $0.status == booked && $0.transactionDate >= june }, limit: 100)
    }

    static var oneAccount: TransactionQuery {
        let account = FinanceSeed.accountID(3)
        return TransactionQuery(
            sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)],
            predicate: #Predicate { $0.accountID == account }, limit: 50)
    }

    /// `effectiveDate` (postedDate ?? transactionDate) is the spec's date and what the secondary
    /// indexes end with; `transactionDate` is what code ported from FinanceKit sorts by.
    static func hotels(sortedBy date: KeyPath<Transaction, Date> & Sendable) -> TransactionQuery {
        let hotel = MerchantCategoryCode(rawValue: 7011)
        let statuses = [TransactionStatus.pending, .booked]
        return TransactionQuery(
            sortDescriptors: [SortDescriptor(date, order: .reverse)],
            predicate: #Predicate { $0.merchantCategoryCode == hotel && statuses.contains($0.status) }, limit: 50)
    }

    static var partlyInMemory: TransactionQuery {
        let booked = TransactionStatus.booked
        let june = june
        return TransactionQuery(
            sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)],
            predicate: #Predicate {
                $0.status == booked && $0.transactionDate >= june && $0.transactionDescription.contains("Hotel")
            }, limit: 50)
    }

    /// The alternative to translation: every visible transaction, then the query in Swift.
    static func inMemory(_ query: TransactionQuery, _ finance: FinanceStore) async throws -> [Transaction] {
        let all = try await finance.transactions(query: TransactionQuery())
        let matching = try query.predicate.map { predicate in try all.filter { try predicate.evaluate($0) } } ?? all
        let sorted = matching.sorted(using: query.sortDescriptors)
        return Array(sorted.prefix(query.limit ?? sorted.count))
    }
}
