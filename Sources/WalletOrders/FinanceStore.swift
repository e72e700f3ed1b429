import Foundation
import WalletPrimitives

/// FinanceKit's `FinanceStore` on a server: the same names and shapes, for one client.
///
/// What a server adds: an explicit client (there is no app sandbox to infer it from), storage and
/// prompts injected through ``WalletStore`` and ``WalletConfiguration``, and errors where a
/// device would terminate the app: calling an API for a data type this deployment does not
/// provide throws `dataTypeUnavailable(_:)` and is logged at error
/// level. A client that is not authorized gets `notAuthorized(_:status:)`,
/// never `FinanceError`, so "no data" and "no access" stay distinct.
///
/// ```swift
/// let store = wallet.financeStore(for: "com.example.budget")
/// if try await store.requestAuthorization() == .authorized {
///     let accounts = try await store.accounts(query: AccountQuery())
///     for try await changes in store.accountHistory(since: nil, isMonitoring: false) { … }
/// }
/// ```
public final class FinanceStore: Sendable {
    public typealias DataType = WalletCore.DataType
    public typealias SaveOrderResult = OrderStorage.SaveOrderResult
    public typealias ContainsOrderResult = OrderStorage.ContainsOrderResult
    public typealias HistoryToken = FinanceData.HistoryToken
    public typealias Changes<Model: Identifiable & Sendable> = FinanceData.Changes<Model> where Model.ID: Sendable
    public typealias History<Model: Identifiable & Sendable> = FinanceData.History<Model> where Model.ID == UUID

    public let client: ClientIdentifier
    let wallet: WalletStore
    /// What the call may see, read once for it; nil: each call reads the access and restriction.
    let snapshot: AccessSnapshot?

    init(client: ClientIdentifier, wallet: WalletStore, snapshot: AccessSnapshot? = nil) {
        self.client = client
        self.wallet = wallet
        self.snapshot = snapshot
    }

    /// Whether this deployment provides the data type: configuration, constant for the life of
    /// the process. (Apple's is static; a server's depends on its configuration.)
    public func isDataAvailable(_ type: DataType) -> Bool {
        wallet.configuration.availability.isDataAvailable(type)
    }

    // MARK: - Authorization

    /// The client's authorization for financial data. Never prompts.
    public func authorizationStatus() async throws -> AuthorizationStatus {
        if let snapshot {
            try wallet.control.checkUsable(snapshot, for: "authorizationStatus")
            return snapshot.access.status
        }
        try await wallet.control.checkUsable(.financialData, for: "authorizationStatus")
        return try await wallet.access.access(for: client).status
    }

    /// Asks the configured prompt while the client is `notDetermined`; afterwards returns the
    /// cached decision without asking.
    public func requestAuthorization() async throws -> AuthorizationStatus {
        try await wallet.control.checkUsable(.financialData, for: "requestAuthorization")
        let choices = try await wallet.finance.accountChoices()
        return try await wallet.control.requestAuthorization(
            for: client, choices: choices, prompt: wallet.configuration.authorizationPrompt, at: wallet.configuration.clock())
    }

    // MARK: - Queries

    public func accounts(query: AccountQuery) async throws -> [Account] {
        try await wallet.finance.accounts(query, visibleTo: authorized("accounts"))
    }

    /// Whether the account `id` exists and is shared with this client: one account looked up, not
    /// every shared one.
    public func isShared(accountID id: UUID) async throws -> Bool {
        try await !wallet.finance.accounts(ids: [id], visibleTo: authorized("accounts")).isEmpty
    }

    public func accountBalances(query: AccountBalanceQuery) async throws -> [AccountBalance] {
        try await wallet.finance.accountBalances(query, visibleTo: authorized("accountBalances"))
    }

    public func transactions(query: TransactionQuery) async throws -> [Transaction] {
        try await wallet.finance.transactions(query, visibleTo: authorized("transactions"))
    }

    // MARK: - History

    public func accountHistory(since token: HistoryToken? = nil, isMonitoring: Bool = true) -> History<Account> {
        let finance = wallet.finance
        return History(
            source: source(
                .accounts, check: nil,
                snapshot: { access, after, limit in
                    try await finance.snapshotAccounts(visibleTo: access, after: after, limit: limit)
                },
                load: { ids, access in try await finance.accounts(ids: ids, visibleTo: access) }),
            since: token, isMonitoring: isMonitoring)
    }

    public func accountBalanceHistory(
        forAccountID accountID: UUID, since token: HistoryToken? = nil, isMonitoring: Bool = true
    ) -> History<AccountBalance> {
        let finance = wallet.finance
        return History(
            source: source(
                .balances(accountID: accountID), check: accountID,
                snapshot: { access, after, limit in
                    try await finance.snapshotBalances(of: accountID, visibleTo: access, after: after, limit: limit)
                },
                load: { ids, access in try await finance.accountBalances(ids: ids, visibleTo: access) }),
            since: token, isMonitoring: isMonitoring)
    }

    public func transactionHistory(
        forAccountID accountID: UUID, since token: HistoryToken? = nil, isMonitoring: Bool = true
    ) -> History<Transaction> {
        let finance = wallet.finance
        return History(
            source: source(
                .transactions(accountID: accountID), check: accountID,
                snapshot: { access, after, limit in
                    try await finance.snapshotTransactions(of: accountID, visibleTo: access, after: after, limit: limit)
                },
                load: { ids, access in try await finance.transactions(ids: ids, visibleTo: access) }),
            since: token, isMonitoring: isMonitoring)
    }

    private func source<Model>(
        _ stream: HistoryStream, check account: UUID?,
        snapshot: @escaping @Sendable (ClientAccess, String, Int) async throws -> [Model],
        load: @escaping @Sendable ([UUID], ClientAccess) async throws -> [Model]
    ) -> HistorySource<Model> {
        HistorySource(
            repository: wallet.finance, access: wallet.access, client: client, stream: stream,
            authorize: { [self] in
                let access = try await self.authorized("history")
                if let account, !access.shares(account) { throw FinanceAccessError.unknownAccount(account) }
                return access
            }, snapshot: snapshot, load: load, configuration: wallet.configuration.history, clock: wallet.configuration.clock)
    }

    // MARK: - Orders

    /// The client's order operations, where the entitlement rules are (``MerchantOrders``).
    private var entitledOrders: MerchantOrders { MerchantOrders(client: client, wallet: wallet) }

    /// Verifies and stores an order of a type the client is entitled to (see
    /// `saveOrder(signedArchive:)`); another type is refused with
    /// `notEntitled(_:orderTypeIdentifier:)`.
    public func saveOrder(signedArchive: Data) async throws -> SaveOrderResult {
        try await entitledOrders.saveOrder(signedArchive: signedArchive)
    }

    /// Verification alone (see `OrderStore.prepareOrder(signedArchive:)`), for verifying many
    /// archives in parallel before saving the valid ones in order with ``saveOrder(_:)``.
    public func prepareOrder(signedArchive: Data) -> OrderPreparation {
        entitledOrders.prepareOrder(signedArchive: signedArchive)
    }

    /// The second half of ``saveOrder(signedArchive:)``: entitlement, consent, the transaction.
    public func saveOrder(_ prepared: PreparedOrder) async throws -> SaveOrderResult {
        try await entitledOrders.saveOrderWithDecision(prepared).result
    }

    /// `containsOrder(matching:updatedDate:)`; `.notFound` for order
    /// types the client is not entitled to, as FinanceKit does.
    public func containsOrder(
        matching fullyQualifiedOrderIdentifier: FullyQualifiedOrderIdentifier, updatedDate: Date? = nil
    ) async throws -> ContainsOrderResult {
        guard try await entitledOrders.mayContain(fullyQualifiedOrderIdentifier) else { return .notFound }
        return try await wallet.clientOrders.containsOrder(matching: fullyQualifiedOrderIdentifier, updatedDate: updatedDate)
    }

    /// ``containsOrder(matching:updatedDate:)`` comparing RFC 3339 text exactly (a server addition).
    public func containsOrder(
        matching fullyQualifiedOrderIdentifier: FullyQualifiedOrderIdentifier, updatedAt: RFC3339Timestamp
    ) async throws -> ContainsOrderResult {
        guard try await entitledOrders.mayContain(fullyQualifiedOrderIdentifier) else { return .notFound }
        return try await wallet.clientOrders.containsOrder(matching: fullyQualifiedOrderIdentifier, updatedAt: updatedAt)
    }

    // MARK: - Helpers

    /// Availability, restriction and authorization for financial data; the client's access.
    private func authorized(_ operation: String) async throws -> ClientAccess {
        if let snapshot { return try wallet.control.requireAuthorized(snapshot, for: operation) }
        try await wallet.control.checkUsable(.financialData, for: operation)
        return try await wallet.control.requireAuthorized(client)
    }
}
