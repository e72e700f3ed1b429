import FinanceData
import Foundation
import OrderStorage
import WalletConsent
import WalletCore
import WalletPrimitives
import WalletSQLite
import WalletStorage

/// One store shared by orders and financial data, and the operator's side of it: import,
/// restriction, authorizations and entitlements, compaction. Hand each client a
/// ``FinanceStore`` with ``financeStore(for:)``.
///
/// ```swift
/// let wallet = try WalletStore(path: "/var/lib/orders/orders.sqlite", configuration: WalletConfiguration())
/// try await wallet.importFeed(feedData)
/// try await wallet.grant([AccountGrant(accountID: account)], to: "com.example.budget")
/// let store = wallet.financeStore(for: "com.example.budget")
/// let transactions = try await store.transactions(query: TransactionQuery(limit: 20))
/// ```
///
/// Every operation checks the data type's availability and restriction first, so a restricted
/// type changes nothing, in this process or any other using the same store.
public final class WalletStore: Sendable {
    public let configuration: WalletConfiguration
    /// Where the data lives: the embedded SQLite file, or another `StorageBackend`. Not API: the
    /// store's operations (and ``outboxes`` for drainers) are the way in, so that every rule on
    /// the data is applied; tests reach it with `@_spi(Testing) import WalletOrders`.
    @_spi(Testing) public let backend: any StorageBackend
    /// The order store without client entitlements: the operator's view. It checks that orders
    /// are available and not restricted before every read or write.
    public let orders: OrderStore
    public let control: AccessControl
    /// The data owner's consent on the network: sign-in, registered clients, the OAuth flow,
    /// tokens and the transaction picker.
    public let consent: FinanceConsent
    /// The same store without those checks, for ``FinanceStore``, which makes FinanceKit's own
    /// (and reports a restriction as `FinanceError.dataRestricted`).
    let clientOrders: OrderStore
    /// What ``authenticateAPIKey(_:)`` read, kept for ``WalletConfiguration/apiKeyStaleness``.
    let apiKeyCache: APIKeyCache
    let signingIdentityCache = SigningIdentityCache()
    /// Authoring writers of one order, one at a time in this process.
    let orderWriters = OrderWriterTurns()

    var access: any AccessRepository { backend.access }
    var finance: any FinanceDataRepository { backend.finance }

    /// Opens the embedded SQLite store at `path` and migrates it, creating it first unless
    /// `createIfMissing` is false (readers), in which case a missing store throws and nothing is
    /// created. `readsOnly`: the caller never writes, so a store in a folder it cannot write is
    /// read as it is (``WalletSQLite/SQLiteBackend/Options/readsOnly``). A new store's files are
    /// created with `fileMode` whatever the umask (``WalletSQLite/StoreFileMode``).
    public convenience init(
        path: String, configuration: WalletConfiguration = WalletConfiguration(), createIfMissing: Bool = true,
        readsOnly: Bool = false, fileMode: StoreFileMode = .ownerOnly
    ) throws(StorageError) {
        let backend = try SQLiteBackend(
            path: path,
            options: SQLiteBackend.Options(createIfMissing: createIfMissing, readsOnly: readsOnly, fileMode: fileMode))
        self.init(backend: backend, configuration: configuration)
    }

    /// A store on `backend`.
    public init(backend: any StorageBackend, configuration: WalletConfiguration) {
        self.configuration = configuration
        self.backend = backend
        control = AccessControl(
            availability: configuration.availability, repository: backend.access, logger: configuration.logger)
        orders = OrderStore(
            repository: backend.orders, verifier: configuration.verifier, consent: configuration.orderConsent,
            clock: configuration.clock, access: control)
        clientOrders = OrderStore(
            repository: backend.orders, verifier: configuration.verifier, consent: configuration.orderConsent,
            clock: configuration.clock)
        consent = FinanceConsent(
            repository: backend.consent, access: backend.access, finance: backend.finance, control: control,
            configuration: configuration)
        apiKeyCache = APIKeyCache(staleness: configuration.apiKeyStaleness)
    }

    /// FinanceKit's API for one client.
    public func financeStore(for client: ClientIdentifier) -> FinanceStore {
        FinanceStore(client: client, wallet: self)
    }

    /// FinanceKit's API for the client of one call, whose every check reads `snapshot` instead of
    /// the store (``FinanceConsent/accessSnapshot(accessToken:)``): one read of who the call
    /// serves, however many checks it makes. Read a new snapshot for a new call.
    public func financeStore(for snapshot: AccessSnapshot) -> FinanceStore {
        FinanceStore(client: snapshot.client, wallet: self, snapshot: snapshot)
    }

    // MARK: - Financial data

    /// Imports a JSON feed (`FinanceFeed`) in one transaction, which also compacts
    /// history older than the retention. A malformed feed is rejected whole; unknown keys are
    /// ignored and listed in the summary's `warnings`.
    @discardableResult
    public func importFeed(_ data: Data, maximumSize: Int = FinanceFeed.defaultMaximumSize) async throws -> FinanceImportSummary {
        try await control.checkUsable(.financialData, for: "importFeed")
        let contents = try FinanceFeed.read(data, maximumSize: maximumSize)
        var summary = try await finance.apply(contents.batch, at: configuration.clock(), compactingBefore: retentionCutoff)
        summary.warnings = contents.warnings
        return summary
    }

    /// Stores a batch built in code, as ``importFeed(_:maximumSize:)`` stores a feed.
    @discardableResult
    public func apply(_ batch: FinanceBatch) async throws -> FinanceImportSummary {
        try await control.checkUsable(.financialData, for: "apply")
        return try await finance.apply(batch, at: configuration.clock(), compactingBefore: retentionCutoff)
    }

    /// Removes change records older than the configured retention; returns how many. Imports do
    /// this too; call it to compact a store that receives no imports.
    @discardableResult
    public func compactHistory() async throws -> Int {
        guard let cutoff = retentionCutoff else { return 0 }
        return try await finance.compactHistory(before: cutoff)
    }

    /// Change records recorded before this instant are past the retention.
    private var retentionCutoff: Date? {
        guard let retention = configuration.history.retention else { return nil }
        return configuration.clock().addingTimeInterval(-retention.timeInterval)
    }

    // MARK: - Restriction

    /// Restricts or releases a data type for every process using this store, at once.
    public func setRestricted(_ type: DataType, _ restricted: Bool) async throws {
        guard configuration.availability.isDataAvailable(type) else { throw FinanceAccessError.dataTypeUnavailable(type) }
        try await access.setRestricted(type, restricted, at: configuration.clock())
    }

    /// When the data type was restricted, nil when it is not.
    public func restriction(of type: DataType) async throws -> Date? {
        try await access.restriction(of: type)
    }

    // MARK: - Clients

    public func access(for client: ClientIdentifier) async throws -> ClientAccess {
        try await access.access(for: client)
    }

    public func clients() async throws -> [ClientAccess] {
        try await access.clients()
    }

    /// Authorizes the client and shares these accounts (as the person would in Settings).
    /// Accounts newly shared appear as inserted in the client's account history.
    public func grant(_ accounts: [AccountGrant], to client: ClientIdentifier) async throws {
        try await control.checkUsable(.financialData, for: "grant")
        try await access.grant(accounts, to: client, at: configuration.clock())
    }

    /// Denies financial data to the client.
    public func deny(_ client: ClientIdentifier) async throws {
        try await control.checkUsable(.financialData, for: "deny")
        try await access.deny(client, at: configuration.clock())
    }

    /// Withdraws access, taking effect on the client's next call. Without accounts: all of it
    /// (the client becomes `denied` and its history tokens stop working). With accounts: those
    /// accounts leave the client's results and show as deleted in its account history.
    public func revoke(_ client: ClientIdentifier, accounts: [UUID] = []) async throws {
        try await control.checkUsable(.financialData, for: "revoke")
        try await access.revoke(client, accounts: accounts, at: configuration.clock())
    }

    /// Entitles the client to orders of these types.
    public func entitle(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws {
        try await control.checkUsable(.orders, for: "entitle")
        try await access.entitle(client, toOrderTypes: types)
    }

    public func removeEntitlements(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws {
        try await control.checkUsable(.orders, for: "removeEntitlements")
        try await access.removeEntitlements(client, toOrderTypes: types)
    }
}
