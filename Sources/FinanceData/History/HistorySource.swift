import Foundation
import WalletCore

/// What a history stream needs from outside FinanceData: who reads, the access check, the
/// stream's pages and records, and the pacing. The facade builds one per stream.
public struct HistorySource<Model: Identifiable & Sendable>: Sendable where Model.ID == UUID {
    public var repository: any FinanceDataRepository
    public var access: any AccessRepository
    public var client: ClientIdentifier
    public var stream: HistoryStream
    /// Checks restriction and authorization (and that the stream's account is shared); returns
    /// the client's access. Called before every batch.
    public var authorize: @Sendable () async throws -> ClientAccess
    /// A page of the stream's current state, after an id, in id order.
    public var snapshot: @Sendable (ClientAccess, String, Int) async throws -> [Model]
    /// The records with these ids that the client may see.
    public var load: @Sendable ([UUID], ClientAccess) async throws -> [Model]
    public var configuration: HistoryConfiguration
    public var clock: @Sendable () -> Date

    public init(
        repository: any FinanceDataRepository, access: any AccessRepository, client: ClientIdentifier, stream: HistoryStream,
        authorize: @escaping @Sendable () async throws -> ClientAccess,
        snapshot: @escaping @Sendable (ClientAccess, String, Int) async throws -> [Model],
        load: @escaping @Sendable ([UUID], ClientAccess) async throws -> [Model], configuration: HistoryConfiguration,
        clock: @escaping @Sendable () -> Date
    ) {
        self.repository = repository
        self.access = access
        self.client = client
        self.stream = stream
        self.authorize = authorize
        self.snapshot = snapshot
        self.load = load
        self.configuration = configuration
        self.clock = clock
    }
}

/// Pacing and retention of history streams.
public struct HistoryConfiguration: Sendable, Hashable {
    /// Most records per batch.
    public var batchSize: Int
    /// How often a monitoring stream looks for new changes (they may come from another process).
    public var pollInterval: Duration
    /// How long change records are kept; older ones are compacted away. Nil: kept forever.
    public var retention: Duration?

    public init(batchSize: Int = 500, pollInterval: Duration = .milliseconds(250), retention: Duration? = .seconds(180 * 86_400))
    {
        self.batchSize = batchSize
        self.pollInterval = pollInterval
        self.retention = retention
    }
}
