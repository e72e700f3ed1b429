import ArgumentParser
import Foundation
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders finance`: accounts, balances, transactions and their history.
struct FinanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "finance",
        abstract: "Import and read financial data: accounts, balances, transactions, history.",
        discussion: """
            Reading commands act for a client (--client, or ORDERS_CLIENT) and return only what it \
            was granted. Exit status: 0 success, 1 invalid input or unknown account, 2 usage or I/O \
            error, 5 not authorized, 6 financial data restricted, 7 not provided by this deployment.
            """,
        subcommands: [
            FinanceImportCommand.self, FinanceAccountsCommand.self, FinanceBalancesCommand.self, FinanceTransactionsCommand.self,
            FinanceHistoryCommand.self, FinanceCompactCommand.self, FinanceClientsCommand.self, FinanceDeliveriesCommand.self,
        ])
}

struct FinanceImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a JSON feed of accounts, balances, transactions and deletions, all or nothing.",
        discussion: CommandGuide.discussion(
            "finance import",
            """
            The feed's format is in docs/cli.md. A malformed feed is rejected whole, naming the record \
            (exit 1; with --json, a JSON object with the error). Unknown keys are ignored with a warning.
            """))

    @Argument(help: ArgumentHelp("The feed.", valueName: "feed.json"))
    var feed: String

    @Flag(help: "Print the summary (or the rejection) as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Refuse feeds larger than this many bytes (64 MiB).", valueName: "bytes"))
    var maxSize = FinanceFeed.defaultMaximumSize

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if maxSize <= 0 { throw ValidationError("--max-size needs a positive number of bytes, not \(maxSize).") }
    }

    func run() async throws {
        let summary: FinanceImportSummary
        do {
            let data: Data
            do {
                switch try FileInput.read(feed, limit: maxSize) {
                case .complete(let contents): data = contents
                case .tooLarge(let size): throw FinanceDataError.feedTooLarge(size: size, limit: maxSize)
                }
            } catch let error as FinanceDataError {
                throw error
            } catch {
                throw CommandFailure("cannot read \(feed): \(TrustOptions.reason(error))")
            }
            // Parsed before the store is opened: a rejected feed creates no store file.
            let contents = try FinanceFeed.read(data, maximumSize: maxSize)
            var applied = try await store.wallet(create: true).apply(contents.batch)
            applied.warnings = contents.warnings
            summary = applied
        } catch let error as FinanceDataError {
            if json { Output.json(WireFeedRejection(feed: feed, error: error)) }
            throw error
        }
        for warning in summary.warnings { Output.warning("\(feed): \(warning)") }
        if json {
            Output.json(summary)
            return
        }
        func line(_ name: String, _ counts: FinanceImportSummary.Counts) -> String {
            "\(name): \(counts.inserted) inserted, \(counts.updated) updated, \(counts.unchanged) unchanged, \(counts.deleted) deleted"
        }
        Output.line(
            [
                "imported \(feed)", line("  accounts", summary.accounts), line("  balances", summary.balances),
                line("  transactions", summary.transactions),
            ]
            .joined(separator: "\n"))
    }
}

/// `orders finance compact`: what every import does at its end, for a store that receives none.
struct FinanceCompactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Remove history change records older than the retention (180 days), as every import does.",
        discussion: CommandGuide.discussion(
            "finance compact",
            """
            History tokens older than the retention then answer "invalid token" and their holders \
            start over. All or nothing: a failure (a full disk, say) removes none.
            """))

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let removed = try await store.wallet(writes: true).compactHistory()
        Output.line("removed \(removed) change record\(removed == 1 ? "" : "s") older than the retention")
    }
}

struct FinanceAccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "List the accounts shared with the client.",
        discussion: CommandGuide.discussion("finance accounts"))

    @Flag(help: "Print one JSON object per account per line.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let finance = try await store.wallet().financeStore(for: try clientOptions.identifier)
        var table = TextTable("ACCOUNT", "TYPE", "CURRENCY", "NAME", "INSTITUTION")
        for account in try await finance.accounts(query: AccountQuery()) {
            if json {
                Output.json(account)
            } else {
                table.append([
                    account.id.uuidString, account.kind.rawValue, account.currencyCode, account.displayName,
                    account.institutionName,
                ])
            }
        }
        table.print()
    }
}

struct FinanceBalancesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balances", abstract: "List an account's balances, newest first.",
        discussion: CommandGuide.discussion("finance balances"))

    @Option(help: ArgumentHelp("The account.", valueName: "id"))
    var account: String

    @Option(parsing: .unconditional, help: "At most this many balances.")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit needs a count of 0 or more, not \(limit).") }
    }

    @Flag(help: "Print one JSON object per balance per line.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let accountID = try FinanceOutput.parseAccount(account)
        let finance = try await store.wallet().financeStore(for: try clientOptions.identifier)
        guard let kind = try await finance.accounts(query: AccountQuery()).first(where: { $0.id == accountID })?.kind else {
            throw FinanceAccessError.unknownAccount(accountID)
        }
        let query = AccountBalanceQuery(predicate: #Predicate { $0.accountID == accountID }, limit: nil)
        let balances = try await finance.accountBalances(query: query)
            .sorted {
                ($0.booked ?? $0.available)?.asOfDate ?? .distantPast > ($1.booked ?? $1.available)?.asOfDate ?? .distantPast
            }
        var amounts = AmountFormatter()
        var table = TextTable([
            .init(header: "AVAILABLE", alignment: .right), .init(header: "AS OF"), .init(header: "BOOKED", alignment: .right),
            .init(header: "AS OF"),
        ])
        for balance in balances.prefix(limit ?? Int.max) {
            if json {
                Output.json(balance)
                continue
            }
            func cells(_ balance: Balance?) -> [String] {
                guard let balance else { return ["-", "-"] }
                return [
                    amounts.format(balance.signedAmount(for: kind), currency: balance.amount.currencyCode),
                    FinanceOutput.date(balance.asOfDate),
                ]
            }
            table.append(cells(balance.available) + cells(balance.booked))
        }
        table.print()
    }
}

struct FinanceTransactionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transactions",
        abstract: "List transactions, filtered, sorted and paged (in SQL where the filter allows).",
        discussion: CommandGuide.discussion(
            "finance transactions",
            """
            --since and --until filter on postedDate, or transactionDate when not posted (since ≤ date < until). \
            Sort fields: effectiveDate (default), transactionDate, postedDate, amount, merchantName; add :desc to reverse. \
            Amounts print signed in the account's direction.
            """))

    @Option(help: ArgumentHelp("Only this account.", valueName: "id"))
    var account: String?

    @Option(
        help: ArgumentHelp("Only this status (repeatable): authorized, booked, memo, pending, rejected.", valueName: "status"))
    var status: [String] = []

    @Option(
        name: .customLong("type"),
        help: ArgumentHelp("Only this transaction type (repeatable), e.g. pointOfSale.", valueName: "type"))
    var types: [String] = []

    @Option(help: ArgumentHelp("Only this merchant category code (repeatable).", valueName: "code"))
    var mcc: [String] = []

    @Option(
        help: ArgumentHelp("From this date (a day or an RFC 3339 date-time).", valueName: "date"),
        transform: DateArgument.parse)
    var since: RFC3339Timestamp?

    @Option(
        help: ArgumentHelp("Before this date (a day or an RFC 3339 date-time).", valueName: "date"),
        transform: DateArgument.parse)
    var until: RFC3339Timestamp?

    @Option(help: ArgumentHelp("Sort by this field, e.g. transactionDate:desc.", valueName: "field[:desc]"))
    var sort: String?

    @Option(parsing: .unconditional, help: "At most this many transactions.")
    var limit: Int?

    @Option(parsing: .unconditional, help: "Skip this many transactions.")
    var offset: Int?

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit needs a count of 0 or more, not \(limit).") }
        if let offset, offset < 0 { throw ValidationError("--offset needs a count of 0 or more, not \(offset).") }
    }

    @Flag(help: "Print one JSON object per transaction per line.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let filter = TransactionFilter(
            accountID: try account.map(FinanceOutput.parseAccount),
            statuses: try status.map { try Self.parse($0, as: TransactionStatus.self, "a status") },
            transactionTypes: try types.map { try Self.parse($0, as: TransactionType.self, "a transaction type") },
            merchantCategoryCodes: try mcc.map { text in
                guard let code = MerchantCategoryCode(text) else {
                    throw CommandFailure("\(MessageText.quote(text)) is not a merchant category code (0…9999)")
                }
                return code
            },
            since: since?.date, until: until?.date)
        let query = TransactionQuery(
            sortDescriptors: try sortDescriptors(), predicate: filter.predicate, limit: limit, offset: offset)

        let finance = try await store.wallet().financeStore(for: try clientOptions.identifier)
        let kinds = Dictionary(uniqueKeysWithValues: try await finance.accounts(query: AccountQuery()).map { ($0.id, $0.kind) })
        // An account the client cannot see (or that does not exist) is an error, as for balances
        // and history, not an empty list that looks like "no transactions".
        if let id = filter.accountID, kinds[id] == nil { throw FinanceAccessError.unknownAccount(id) }
        var amounts = AmountFormatter()
        var table = TextTable([
            .init(header: "DATE"), .init(header: "STATUS"), .init(header: "AMOUNT", alignment: .right),
            .init(header: "DESCRIPTION"), .init(header: "MERCHANT"),
        ])
        for transaction in try await finance.transactions(query: query) {
            if json {
                Output.json(transaction)
                continue
            }
            let amount = amounts.format(
                transaction.signedAmount(for: kinds[transaction.accountID] ?? .asset),
                currency: transaction.transactionAmount.currencyCode)
            table.append([
                FinanceOutput.day(transaction.effectiveDate), transaction.status.name, amount,
                transaction.transactionDescription, transaction.merchantName ?? "",
            ])
        }
        table.print()
    }

    private static func parse<Value: NamedCases>(_ name: String, as type: Value.Type, _ what: String) throws -> Value {
        guard let value = Value(name: name) else {
            throw CommandFailure("'\(name)' is not \(what): \(Value.allCases.map(\.name).joined(separator: ", "))")
        }
        return value
    }

    private func sortDescriptors() throws -> [SortDescriptor<Transaction>] {
        guard let sort else { return [] }
        do {
            return try TransactionSort(sort).descriptors
        } catch .notAnOrder {
            throw CommandFailure("--sort takes FIELD or FIELD:desc, not \(MessageText.quote(sort))")
        } catch .unknownField(let field) {
            throw CommandFailure(
                "cannot sort by \(MessageText.quote(field)): use effectiveDate, transactionDate, postedDate, amount or merchantName"
            )
        }
    }
}
