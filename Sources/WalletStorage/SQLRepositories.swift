import FinanceData
import Foundation
import OrderStorage
import WalletConsent
import WalletCore

/// Every repository of a wallet, each written once over one ``SQLExecutor``.
package struct SQLRepositories: Sendable {
    package let access: SQLAccessRepository
    package let orders: SQLOrderRepository
    package let finance: SQLFinanceDataRepository
    package let registrations: SQLRegistrationRepository
    package let pushOutbox: SQLPushOutbox
    package let apiKeys: SQLAPIKeyRepository
    package let consent: SQLConsentRepository
    package let backgroundDelivery: SQLBackgroundDeliveryRepository
    package let signingIdentities: SQLSigningIdentityRepository
    package let authoring: SQLAuthoringRead
    package let tracking: SQLTrackingRepository

    package init(executor: any SQLExecutor) {
        access = SQLAccessRepository(executor: executor)
        orders = SQLOrderRepository(executor: executor)
        finance = SQLFinanceDataRepository(executor: executor)
        registrations = SQLRegistrationRepository(executor: executor)
        pushOutbox = SQLPushOutbox(executor: executor)
        apiKeys = SQLAPIKeyRepository(executor: executor)
        consent = SQLConsentRepository(executor: executor)
        backgroundDelivery = SQLBackgroundDeliveryRepository(executor: executor)
        signingIdentities = SQLSigningIdentityRepository(executor: executor)
        authoring = SQLAuthoringRead(executor: executor)
        tracking = SQLTrackingRepository(executor: executor)
    }
}

extension SQLRepositories {
    /// ``StorageBackend/withTransaction(_:)`` for a backend with these repositories: the body's
    /// repositories run on the unit of work's connection (``BoundExecutor``). That unit is the one
    /// every repository's own writes are, and commits or rolls back as they do.
    package static func transaction<T: Sendable>(
        on executor: any SQLExecutor, _ body: @Sendable (any StorageTransaction) async throws -> T
    ) async throws -> T {
        try await executor.write { connection in
            let bound = SQLRepositories(executor: BoundExecutor(dialect: executor.dialect, connection: connection))
            return try await body(
                BoundTransaction(
                    access: bound.access, orders: bound.orders, finance: bound.finance, registrations: bound.registrations))
        }
    }
}

/// A backend whose repositories are ``SQLRepositories`` over its executor: it provides the two,
/// and gets the repository properties of ``StorageBackend`` and its unit of work from here.
package protocol SQLStorageBackend: StorageBackend {
    var sqlExecutor: any SQLExecutor { get }
    var repositories: SQLRepositories { get }
}

extension SQLStorageBackend {
    public var access: any AccessRepository { repositories.access }
    public var orders: any OrderRepository { repositories.orders }
    public var finance: any FinanceDataRepository { repositories.finance }
    public var registrations: any RegistrationRepository { repositories.registrations }
    public var pushOutbox: any PushOutbox { repositories.pushOutbox }
    public var apiKeys: any APIKeyRepository { repositories.apiKeys }
    public var consent: any ConsentRepository { repositories.consent }
    public var backgroundDelivery: any BackgroundDeliveryRepository { repositories.backgroundDelivery }
    public var signingIdentities: any SigningIdentityRepository { repositories.signingIdentities }
    public var tracking: any TrackingRepository { repositories.tracking }

    public func withTransaction<T: Sendable>(_ body: @Sendable (any StorageTransaction) async throws -> T) async throws -> T {
        try await SQLRepositories.transaction(on: sqlExecutor, body)
    }

    public func authoringBasis(
        of identifier: FullyQualifiedOrderIdentifier, client: ClientIdentifier?, receipt: ReceiptKey?, now: Date
    ) async throws -> AuthoringBasis {
        try await repositories.authoring.basis(of: identifier, client: client, receipt: receipt, now: now)
    }
}
