import FinanceData
import Foundation
import OrderStorage
import WalletConsent
import WalletCore

/// Where a wallet's data lives: every repository over one database, a unit of work that spans
/// them, and closing. `WalletSQLite.SQLiteBackend` is the embedded default; a server backend
/// implements the same protocol and passes the same contract suite (Tests/StorageContract).
///
/// ```swift
/// let backend = try SQLiteBackend(path: "/var/lib/wallet/store.sqlite")
/// let wallet = WalletStore(backend: backend, configuration: WalletConfiguration())
/// ```
///
public protocol StorageBackend: Sendable {
    /// Restrictions, authorizations, grants, entitlements, history cursors.
    var access: any AccessRepository { get }
    /// Orders and their versions.
    var orders: any OrderRepository { get }
    /// Accounts, balances, transactions and their change log.
    var finance: any FinanceDataRepository { get }
    /// Devices registered for order updates (the Orders web service).
    var registrations: any RegistrationRepository { get }
    /// Pushes owed to registered devices, written with the versions they announce.
    var pushOutbox: any PushOutbox { get }
    /// Merchant API keys (their order types are entitlements in ``access``).
    var apiKeys: any APIKeyRepository { get }
    /// The data owner's password and sessions, registered clients, their codes and tokens.
    var consent: any ConsentRepository { get }
    /// Clients' background-delivery endpoints, the decisions to wake them, and their outbox.
    var backgroundDelivery: any BackgroundDeliveryRepository { get }
    /// The signing identities the service signs authored orders with: certificates and where
    /// their keys are, never the keys.
    var signingIdentities: any SigningIdentityRepository { get }
    /// Tracking endpoints, the events they received and the versions those made.
    var tracking: any TrackingRepository { get }

    /// Runs `body` as one transaction: the writes it makes through the transaction's repositories
    /// commit together when it returns, and none of them when it throws. Reads inside see those
    /// writes. Keep the body to storage work: the database is locked for writers until it ends.
    ///
    /// ```swift
    /// try await backend.withTransaction { transaction in
    ///     _ = try await transaction.orders.save(candidate, at: now)
    ///     try await transaction.access.entitle(client, toOrderTypes: [candidate.identifier.orderTypeIdentifier])
    /// }
    /// ```
    func withTransaction<T: Sendable>(_ body: @Sendable (any StorageTransaction) async throws -> T) async throws -> T

    /// Everything authoring reads before it composes a version of `identifier` (``OrderStorage/AuthoringBasis``):
    /// the restriction of orders and `client`'s entitlement to the type (entitled when nil: the
    /// operator), the current version with its archive, the receipt kept under `receipt` within
    /// ``OrderStorage/RequestReceipt/lifetime`` of `now`, and the type's signing identity. The SQL
    /// backends read it in one statement; the default reads each repository in turn.
    func authoringBasis(
        of identifier: FullyQualifiedOrderIdentifier, client: ClientIdentifier?, receipt: ReceiptKey?, now: Date
    ) async throws -> AuthoringBasis

    /// Where the data is, for messages: a file path, or a URL without its password.
    var location: String { get }

    /// Runs what the backend needs while it is used — a PostgreSQL pool opened to be run by its
    /// owner (`PostgresBackend.Options.poolLifetime`) — until the calling task is cancelled;
    /// returns at once when there is nothing to run (the default). A `ServiceGroup` calls it
    /// through `OrdersServer`.
    func run() async

    /// Releases connections. The backend must not be used afterwards.
    func close() async throws

    /// The threads of the backend's own on which its reads and units of work run (its
    /// `StorageThreads`), for a server to run its own work on as well: a handler's call then
    /// needs no hop to them, and a long unit of work holds one of them, never one of Swift
    /// concurrency's few threads or an event loop (docs/design.md, "One threading model").
    var taskExecutor: any TaskExecutor { get }
}

extension StorageBackend {
    public func run() async {}

    public func authoringBasis(
        of identifier: FullyQualifiedOrderIdentifier, client: ClientIdentifier?, receipt: ReceiptKey?, now: Date
    ) async throws -> AuthoringBasis {
        let access =
            if let client {
                try await self.access.orderTypeAccess(of: client, to: identifier.orderTypeIdentifier)
            } else {
                OrderTypeAccess(restrictedSince: try await self.access.restriction(of: .orders), isEntitled: true)
            }
        var current: AuthoringBasis.CurrentVersion?
        if let order = try await orders.currentVersion(of: identifier), let archive = try await orders.archive(of: identifier) {
            current = AuthoringBasis.CurrentVersion(order: order, archive: archive)
        }
        var kept: RequestReceipt?
        if let receipt {
            kept = try await orders.receipt(
                caller: receipt.caller, idempotencyKey: receipt.idempotencyKey,
                notBefore: now.addingTimeInterval(-RequestReceipt.lifetime))
        }
        return AuthoringBasis(
            access: access, current: current, receipt: kept,
            identity: try await signingIdentities.identity(orderTypeIdentifier: identifier.orderTypeIdentifier))
    }
}

/// The repositories as seen inside ``StorageBackend/withTransaction(_:)``.
public protocol StorageTransaction: Sendable {
    var access: any AccessRepository { get }
    var orders: any OrderRepository { get }
    var finance: any FinanceDataRepository { get }
    var registrations: any RegistrationRepository { get }
}

/// A unit of work's repositories, as a backend hands them to
/// ``StorageBackend/withTransaction(_:)``: each already bound to the open transaction.
package struct BoundTransaction: StorageTransaction {
    package let access: any AccessRepository
    package let orders: any OrderRepository
    package let finance: any FinanceDataRepository
    package let registrations: any RegistrationRepository

    package init(
        access: any AccessRepository, orders: any OrderRepository, finance: any FinanceDataRepository,
        registrations: any RegistrationRepository
    ) {
        self.access = access
        self.orders = orders
        self.finance = finance
        self.registrations = registrations
    }
}
