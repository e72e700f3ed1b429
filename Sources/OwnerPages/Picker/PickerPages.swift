import FinanceData
import Foundation
import HTTPTypes
import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletConsent
import WalletOrders

/// `/finance/pick`: FinanceKitUI's TransactionPicker. It needs no authorization — the client
/// gets exactly the transactions the owner picks, once, through a single-use code — and the
/// owner sees every transaction, newest first, with a search and suggested tokens that narrow it.
struct PickerPages: Sendable {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore

    /// Rows a page shows at first, and at most.
    static let pageSize = 50
    static let largestPage = 500

    func add(to pages: RouterGroup<Context>, table: RouteTable) {
        table.add(.get, "pick", prefix: "/finance", to: pages, use: picker)
        table.add(.get, "pick/review", prefix: "/finance", to: pages, use: review)
        table.add(.post, "pick", prefix: "/finance", to: pages, use: decide)
    }

    struct Row {
        var id: String
        var title: String
        var detail: String?
        var date: String
        var accountName: String
        var status: String
        var amount: String
        var direction: String
        var checked: Bool
    }

    struct Token {
        var index: Int
        var field: String
        var value: String
        var label: String
        var active: Bool
    }

    /// The suggested tokens of one kind (merchants, categories, accounts): one group each, so a
    /// group's checkboxes share one name and nothing else.
    struct TokenGroup {
        var legend: String
        var tokens: [Token]
    }

    struct PickerModel: PageModel {
        var frame: PageFrame
        var formToken: String
        var clientName: String
        var request: [RequestField]
        var query: String
        var tokenGroups: [TokenGroup]
        var transactions: [Row]
        var hiddenSelected: [String]
        var selectedCount: Int
        var maximum: Int
        var more: Bool
        var nextLimit: Int
    }

    struct ReviewModel: PageModel {
        var frame: PageFrame
        var formToken: String
        var clientName: String
        var request: [RequestField]
        var transactions: [Row]
        var selected: [String]
        var heading: String
        var back: String
    }

    @Sendable func picker(_ request: Request, context: Context) async throws -> Response {
        let step = try await AuthorizationPage.shown(request, context: context, wallet: wallet, responseTypeRequired: false)
        guard case .proceed(let owner) = step else { return step.response }
        let fields = owner.fields
        let locale = PageLocale(acceptLanguage: request.headers[.acceptLanguage])
        let maximum = wallet.configuration.consent.maximumPickedTransactions
        let text = PageText(locale, values: ["app": owner.client.name, "maximum": String(maximum)])
        let accounts = try await owner.call.ownerAccounts()
        let selection = try Self.selection(fields)
        let search = try Search(fields: fields)
        let limit = min(Self.largestPage, max(1, Int(fields.value("limit") ?? "") ?? Self.pageSize))
        var query = TransactionQuery(
            sortDescriptors: [SortDescriptor(\.effectiveDate, order: .reverse)], predicate: search.filter.predicate,
            limit: limit + 1)
        query.textSearch = search.text
        let found = try await owner.call.ownerTransactions(query)
        let shown = found.prefix(limit)
        let shownIDs = Set(shown.map(\.id))
        let rows = shown.map {
            Self.row($0, accounts: accounts, locale: locale, text: text, checked: selection.contains($0.id))
        }
        let tokens = try await suggestions(search: search, accounts: accounts, text: text, call: owner.call)
        return PageResponse.render(
            "transactionPicker",
            PickerModel(
                frame: PageFrame(
                    title: text["chooseTransactions"], text: text, session: owner.session.formToken, usesScript: true),
                formToken: owner.session.formToken, clientName: owner.client.name,
                request: AuthorizationPage.fields(owner.authorization), query: search.text ?? "", tokenGroups: tokens,
                transactions: Array(rows), hiddenSelected: selection.filter { !shownIDs.contains($0) }.map(\.uuidString),
                selectedCount: selection.count, maximum: maximum,
                more: found.count > limit, nextLimit: min(Self.largestPage, limit + Self.pageSize)),
            formActions: AuthorizationPage.formActions(owner.authorization))
    }

    @Sendable func review(_ request: Request, context: Context) async throws -> Response {
        let step = try await AuthorizationPage.shown(request, context: context, wallet: wallet, responseTypeRequired: false)
        guard case .proceed(let owner) = step else { return step.response }
        let selection = try Self.selection(owner.fields)
        let back = "/finance/pick?" + FormFields(pairs: owner.fields.pairs.filter { $0.name != "limit" }).encoded
        guard !selection.isEmpty else { return PageResponse.redirect(to: back) }
        let maximum = wallet.configuration.consent.maximumPickedTransactions
        guard selection.count <= maximum else {
            throw ServiceRequestError.invalidParameter(name: "selected", reason: "pick at most \(maximum) transactions")
        }
        let locale = PageLocale(acceptLanguage: request.headers[.acceptLanguage])
        let text = PageText(locale, values: ["app": owner.client.name])
        let accounts = try await owner.call.ownerAccounts()
        var query = TransactionQuery(sortDescriptors: [SortDescriptor(\.effectiveDate, order: .reverse)])
        query.predicate = #Predicate<Transaction> { selection.contains($0.id) }
        let chosen = try await owner.call.ownerTransactions(query)
        return PageResponse.render(
            "pickReview",
            ReviewModel(
                frame: PageFrame(title: text["shareTransactions"], text: text, session: owner.session.formToken),
                formToken: owner.session.formToken, clientName: owner.client.name,
                request: AuthorizationPage.fields(owner.authorization),
                transactions: chosen.map { Self.row($0, accounts: accounts, locale: locale, text: text, checked: true) },
                selected: chosen.map(\.id.uuidString),
                heading: chosen.count == 1
                    ? text["shareOneTransactionHeading"] : text["shareTransactionsHeading", ["count": String(chosen.count)]],
                back: back),
            formActions: AuthorizationPage.formActions(owner.authorization))
    }

    @Sendable func decide(_ request: Request, context: Context) async throws -> Response {
        let step = try await AuthorizationPage.posted(request, context: context, wallet: wallet, responseTypeRequired: false)
        guard case .proceed(let owner) = step else { return step.response }
        guard owner.fields.value("decision") == "share" else {
            return AuthorizationPage.redirect(
                wallet.consent.cancel(answering: owner.authorization), for: owner.authorization, issuer: context.publicOrigin)
        }
        let answer = try await owner.call.sharePicked(try Self.selection(owner.fields), answering: owner.authorization)
        return AuthorizationPage.redirect(answer, for: owner.authorization, issuer: context.publicOrigin)
    }

    /// The `selected` transaction ids, each once, in order; a value that is not an id is refused.
    static func selection(_ fields: FormFields) throws -> [UUID] {
        var seen = Set<UUID>()
        return try fields.values("selected").compactMap { text in
            guard let id = UUID(uuidString: text) else {
                throw ServiceRequestError.invalidParameter(name: "selected", reason: "not a transaction id")
            }
            return seen.insert(id).inserted ? id : nil
        }
    }

    /// What narrows the list: the free text, and the tokens ticked.
    struct Search {
        var text: String?
        var filter: TransactionFilter

        init(fields: FormFields) throws {
            let text = fields.value("q")?.trimmingCharacters(in: .whitespacesAndNewlines)
            self.text = text.flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }
            filter = TransactionFilter()
            if let merchant = fields.value("merchant"), !merchant.isEmpty { filter.merchantName = String(merchant.prefix(200)) }
            if let category = fields.value("category"), !category.isEmpty {
                guard let code = MerchantCategoryCode(category) else {
                    throw ServiceRequestError.invalidParameter(name: "category", reason: "not a merchant category code")
                }
                filter.merchantCategoryCodes = [code]
            }
            if let account = fields.value("account"), !account.isEmpty {
                guard let id = UUID(uuidString: account) else {
                    throw ServiceRequestError.invalidParameter(name: "account", reason: "not an account id")
                }
                filter.accountID = id
            }
        }
    }

    /// Tokens from the owner's most recent transactions: the commonest merchants and categories,
    /// and the accounts; in each group the one in force first, ticked.
    private func suggestions(
        search: Search, accounts: [Account], text: PageText, call: AuthorizationCall
    ) async throws -> [TokenGroup] {
        let recent = try await call.ownerTransactions(
            TransactionQuery(sortDescriptors: [SortDescriptor(\.effectiveDate, order: .reverse)], limit: 200))
        func commonest<Key: Hashable>(_ keys: [Key], _ count: Int, keeping chosen: Key?) -> [Key] {
            let counts = Dictionary(keys.map { ($0, 1) }, uniquingKeysWith: +)
            var order: [Key] = []
            for key in keys where !order.contains(key) { order.append(key) }
            var result = Array(order.sorted { counts[$0, default: 0] > counts[$1, default: 0] }.prefix(count))
            if let chosen { result = [chosen] + result.filter { $0 != chosen } }
            return result
        }
        let merchants = commonest(recent.compactMap(\.merchantName), 6, keeping: search.filter.merchantName)
        let categories = commonest(
            recent.compactMap(\.merchantCategoryCode), 4, keeping: search.filter.merchantCategoryCodes.first)
        var chosenAccounts = Array(accounts.prefix(8))
        if let chosen = accounts.first(where: { $0.id == search.filter.accountID }) {
            chosenAccounts = [chosen] + chosenAccounts.filter { $0.id != chosen.id }
        }
        var index = 0
        func tokens(_ field: String, _ values: [(value: String, label: String, active: Bool)]) -> [Token] {
            values.map { value in
                defer { index += 1 }
                return Token(index: index, field: field, value: value.value, label: value.label, active: value.active)
            }
        }
        return [
            TokenGroup(
                legend: text["merchants"],
                tokens: tokens("merchant", merchants.map { ($0, $0, $0 == search.filter.merchantName) })),
            TokenGroup(
                legend: text["categories"],
                tokens: tokens(
                    "category",
                    categories.map {
                        ($0.description, MerchantCategoryNames.name(of: $0), $0 == search.filter.merchantCategoryCodes.first)
                    })),
            TokenGroup(
                legend: text["accounts"],
                tokens: tokens(
                    "account", chosenAccounts.map { ($0.id.uuidString, $0.displayName, $0.id == search.filter.accountID) })),
        ].filter { !$0.tokens.isEmpty }
    }

    /// A transaction as a row: the merchant (or the description), the amount signed in its
    /// account's direction in the owner's locale, the day, the account and the status.
    static func row(
        _ transaction: Transaction, accounts: [Account], locale: PageLocale, text: PageText, checked: Bool
    ) -> Row {
        let account = accounts.first { $0.id == transaction.accountID }
        let title = transaction.merchantName ?? transaction.transactionDescription
        return Row(
            id: transaction.id.uuidString, title: title,
            detail: transaction.merchantName != nil && transaction.transactionDescription != title
                ? transaction.transactionDescription : nil,
            date: locale.day(transaction.effectiveDate), accountName: account?.displayName ?? text["unknownAccount"],
            status: text["status" + transaction.status.name.capitalizedFirst],
            amount: locale.amount(
                transaction.signedAmount(for: account?.kind ?? .asset), currency: transaction.transactionAmount.currencyCode),
            direction: transaction.creditDebitIndicator == .credit ? "credit" : "debit", checked: checked)
    }
}
