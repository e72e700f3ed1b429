import FinanceData
import Foundation
import HTTPTypes
import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletConsent
import WalletOrders
import WalletWire

/// The financial-data API (`/finance/v1`) for clients holding an access token: FinanceKit's
/// `FinanceStore` over HTTP. Every rule of the core holds as in process — grants and earliest
/// dates, restriction (`503 finance.dataRestricted`), availability, `historyTokenInvalid` — and
/// errors have the service's one JSON shape. The contract is `docs/openapi.json`.
package struct FinanceAPIRoutes: Sendable {
    package typealias Context = OrdersRequestContext

    let wallet: WalletStore
    let streams: StreamLimiter
    /// Client authentication by password (HTTP Basic on `/authorization`), limited per address
    /// as the token endpoint is: the same limiter, so an address guessing secrets gains nothing
    /// by spreading its guesses over both.
    let clientAuthentication: RateLimiter

    package init(wallet: WalletStore, streams: StreamLimiter, clientAuthentication: RateLimiter) {
        self.wallet = wallet
        self.streams = streams
        self.clientAuthentication = clientAuthentication
    }

    package func add(to router: Router<Context>, table: RouteTable) {
        let prefix = "/finance/v1"
        // authorizationStatus(): with the access token, or — for a client without one, after Don't
        // Allow — with its client credentials.
        table.add(.get, "authorization", prefix: prefix, to: router.group("finance/v1"), use: authorization)
        let api = router.group("finance/v1").add(middleware: AccessTokenAuthenticator(wallet: wallet))
            .group(context: ClientContext.self)
        table.add(.get, "accounts", prefix: prefix, to: api, use: accounts)
        table.add(.get, "accounts/{accountID}/balances", prefix: prefix, to: api, use: balances)
        table.add(.get, "transactions", prefix: prefix, to: api, use: transactions)
        let history = HistoryRoutes(wallet: wallet, streams: streams)
        table.add(.get, "history/accounts", prefix: prefix, to: api, use: history.accounts)
        table.add(.get, "history/accounts/{accountID}/balances", prefix: prefix, to: api, use: history.balances)
        table.add(.get, "history/accounts/{accountID}/transactions", prefix: prefix, to: api, use: history.transactions)
        let deliveries = BackgroundDeliveryRoutes(wallet: wallet)
        table.add(.get, "background-delivery", prefix: prefix, to: api, use: deliveries.show)
        table.add(.put, "background-delivery", prefix: prefix, to: api, use: deliveries.enable)
        table.add(.delete, "background-delivery", prefix: prefix, to: api, use: deliveries.disable)
    }

    struct Status: Encodable {
        var status: AuthorizationStatus
    }

    struct Accounts: Encodable {
        var accounts: [Account]
    }

    struct Balances: Encodable {
        var balances: [AccountBalance]
    }

    struct Transactions: Encodable {
        var transactions: [Transaction]
        @Nullable var nextCursor: String?
    }

    @Sendable func authorization(_ request: Request, context: Context) async throws -> Response {
        let store: FinanceStore
        if let token = AuthorizationHeader.credentials(scheme: "Bearer", in: request.headers[.authorization]) {
            store = wallet.financeStore(for: try await wallet.consent.accessSnapshot(accessToken: token))
        } else if let basic = BasicCredentials(header: request.headers[.authorization]) {
            guard clientAuthentication.admit(client: context.clientAddress) else {
                throw ServiceRequestError.rateLimited(retryAfter: clientAuthentication.retryAfter)
            }
            let credentials = ClientCredentials(id: basic.user, secret: basic.password)
            store = wallet.financeStore(for: try await wallet.consent.authenticatedClient(credentials))
        } else if request.headers[.authorization] == nil {
            throw MissingCredentials()
        } else {
            throw ConsentError.invalidToken
        }
        let status = try await store.authorizationStatus()
        return Response.json(status: .ok, body: Status(status: status), headers: Self.noStore)
    }

    @Sendable func accounts(_ request: Request, context: ClientContext) async throws -> Response {
        let parameters = FinanceQueryParameters(try PageForm.query(request))
        let query = AccountQuery(limit: try parameters.limit(), offset: try parameters.offset())
        let accounts = try await store(context).accounts(query: query)
        return Response.json(status: .ok, body: Accounts(accounts: accounts), headers: Self.noStore)
    }

    @Sendable func balances(_ request: Request, context: ClientContext) async throws -> Response {
        let store = store(context)
        let account = try Self.account(in: context)
        try await Self.requireShared(account, by: store)
        let parameters = FinanceQueryParameters(try PageForm.query(request))
        let query = AccountBalanceQuery(
            sortDescriptors: [SortDescriptor(\.id)],
            predicate: try Self.balancePredicate(
                account: account, availableSince: parameters.date("availableSince"), bookedSince: parameters.date("bookedSince"),
                until: parameters.date("until")),
            limit: try parameters.limit(), offset: try parameters.offset())
        return Response.json(
            status: .ok, body: Balances(balances: try await store.accountBalances(query: query)), headers: Self.noStore)
    }

    @Sendable func transactions(_ request: Request, context: ClientContext) async throws -> Response {
        let store = store(context)
        let parameters = FinanceQueryParameters(try PageForm.query(request))
        var query = try parameters.transactionQuery()
        if let account = try parameters.uuid("account") { try await Self.requireShared(account, by: store) }
        let limit = try parameters.limit()
        let offset = try parameters.cursorOffset()
        query.limit = limit + 1
        query.offset = offset
        let found = try await store.transactions(query: query)
        let page = Transactions(
            transactions: Array(found.prefix(limit)),
            nextCursor: found.count > limit ? parameters.cursor(at: offset + limit) : nil)
        return Response.json(status: .ok, body: page, headers: Self.noStore)
    }

    /// The client's FinanceStore.
    func store(_ context: ClientContext) -> FinanceStore {
        wallet.financeStore(for: context.caller.snapshot)
    }

    static func account(in context: some RequestContext) throws -> UUID {
        let text = try PathParameter.decoded("accountID", in: context)
        guard let id = UUID(uuidString: text) else {
            throw ServiceRequestError.invalidParameter(name: "accountID", reason: "not an account id (a UUID)")
        }
        return id
    }

    /// An account the client cannot see is `404 access.unknownAccount`, as for history — not an
    /// empty list that reads as "no transactions".
    static func requireShared(_ account: UUID, by store: FinanceStore) async throws {
        guard try await store.isShared(accountID: account) else {
            throw FinanceAccessError.unknownAccount(account)
        }
    }

    /// One account's balances, narrowed as `AccountBalanceQuery`'s helpers narrow them.
    static func balancePredicate(
        account: UUID, availableSince: Date?, bookedSince: Date?, until: Date?
    ) -> Predicate<AccountBalance> {
        let end = until ?? .distantFuture
        switch (availableSince, bookedSince) {
        case (let start?, _):
            return #Predicate<AccountBalance> { balance in
                balance.accountID == account && (balance.available.flatMap { $0.asOfDate >= start && $0.asOfDate < end } ?? false)
            }
        case (nil, let start?):
            return #Predicate<AccountBalance> { balance in
                balance.accountID == account && (balance.booked.flatMap { $0.asOfDate >= start && $0.asOfDate < end } ?? false)
            }
        case (nil, nil):
            return #Predicate<AccountBalance> { balance in balance.accountID == account }
        }
    }

    /// Financial data is never cached on the way.
    static let noStore: HTTPFields = [.cacheControl: "no-store"]
}
