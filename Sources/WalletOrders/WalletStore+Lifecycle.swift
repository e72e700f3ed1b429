import FinanceData
import OrderStorage
import WalletCore

/// What a server's assembly needs of the store beside its guarded API: to run and close it, and
/// the outboxes its drainers work on.
extension WalletStore {
    /// The backend's own work (PostgreSQL's connection pools), until the task is cancelled; an
    /// embedded store has none and returns at once.
    public func run() async {
        await backend.run()
    }

    /// Closes the store's files or connections; nothing may use the store afterwards.
    public func close() async throws {
        try await backend.close()
    }

    /// Where a server should run its work: the store's own threads, on which its reads and
    /// units of work run whatever the backend, so that a handler's call needs no hop to them and
    /// a long one holds one of them, not one of Swift concurrency's few or an event loop.
    /// `OrdersServer` runs its services under `withTaskExecutorPreference(wallet.taskExecutor)`.
    public var taskExecutor: any TaskExecutor {
        backend.taskExecutor
    }

    /// The outboxes the service's drainers work on.
    public var outboxes: OutboxRepositories {
        OutboxRepositories(
            pushes: backend.pushOutbox, registrations: backend.registrations, deliveries: backend.backgroundDelivery,
            access: backend.access)
    }
}

/// What the outbox drainers work on: the pushes owed to devices and the registrations they go
/// to, the background deliveries owed to clients, and the access each delivery is checked against
/// before it is sent. Rows are written in the same transaction as the change they announce.
public struct OutboxRepositories: Sendable {
    public let pushes: any PushOutbox
    public let registrations: any RegistrationRepository
    public let deliveries: any BackgroundDeliveryRepository
    public let access: any AccessRepository
}
