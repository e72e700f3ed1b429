import Logging
import PostgresNIO
import Synchronization
import WalletCore

/// The servers a ``PostgresDatabaseURL`` names, the one the store uses now, and its connection
/// pool.
///
/// With one host and `target_session_attrs=any` that is the host, and nothing is checked. With
/// several, or `read-write`/`primary`, a server is chosen as libpq chooses one (the first, in the
/// URL's order, that accepts a connection and, where asked, writes) and kept until a connection
/// to it is lost or it answers as a read-only server (SQLSTATE 25006: it was demoted); the next
/// request looks again. So after the primary dies and a standby is promoted, the store moves to
/// the standby by itself; in the gap, requests fail at once with `store.unavailable` (`503` with
/// `Retry-After` in the service) instead of waiting.
///
/// Each server chosen gets a pool of its own, made when it is chosen and shut down when it is
/// given up: a pool kept from before — holding connections made while its server was a standby,
/// or backing off from the time it was down — is never reused after a failover.
///
/// Every lease waits at most the URL's `pool_timeout` (for a free connection, or for a server
/// that is starting) and then fails the same way: a full pool or a server that does not answer
/// sheds load instead of queueing it without bound. A chosen server's lease that waits longer
/// than ``probeDelay`` has the server checked (a connection of its own, as the search makes):
/// a server that no longer takes connections or writes is given up at once, and the request
/// fails at once, instead of every request waiting `pool_timeout` on a pool that is only
/// retrying its connections (postgres-nio's pool queues a lease while it cannot connect).
final class PostgresServers: Sendable {
    let url: PostgresDatabaseURL
    private let logger: Logger
    private let connectTimeout: Duration
    private let maximumConnections: Int
    /// The one pool when the server is not chosen (one host, `target_session_attrs=any`).
    private let fixed: PostgresClient?
    private let state = Mutex(State())

    private struct State {
        /// The pool of the server in use, when one was chosen.
        var current: ServerPool?
        /// Every pool made and not yet shut down.
        var pools: [ServerPool] = []
        /// The look for a server, when it is under way; later requests wait for it.
        var search: Task<ServerPool, any Error>?
        /// The last look that found none: later requests within ``PostgresServers/searchPause``
        /// get its error without a look of their own, so that a burst of requests during a
        /// failover does not become a burst of connection attempts.
        var failure: (at: ContinuousClock.Instant, error: StorageError)?
        var closed = false
    }

    /// How long a look that found no usable server answers for the next requests.
    static let searchPause: Duration = .milliseconds(250)

    /// How long a lease from a chosen server's pool waits before the server is checked.
    static let probeDelay: Duration = .milliseconds(100)

    init(url: PostgresDatabaseURL, maximumConnections: Int, connectTimeout: Duration, logger: Logger) {
        self.url = url
        self.logger = logger
        self.connectTimeout = connectTimeout
        self.maximumConnections = max(1, maximumConnections)
        let chooses = url.endpoints.count > 1 || url.targetSessionAttributes != .any
        fixed = chooses ? nil : Self.client(url, url.endpoint, self.maximumConnections, connectTimeout, logger)
    }

    private static func client(
        _ url: PostgresDatabaseURL, _ endpoint: PostgresDatabaseURL.Endpoint, _ maximumConnections: Int,
        _ connectTimeout: Duration, _ logger: Logger
    ) -> PostgresClient {
        var configuration = url.clientConfiguration(for: endpoint)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = connectTimeout
        return PostgresClient(configuration: configuration, eventLoopGroup: PostgresEventLoops.group, backgroundLogger: logger)
    }

    /// Runs the pools until the calling task is cancelled, then shuts every one down. A chosen
    /// server's pool runs from when it is chosen (before this is called, if a request came
    /// first).
    func run() async {
        if let fixed { return await fixed.run() }
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        let pools = state.withLock { state in
            state.closed = true
            state.current = nil
            defer { state.pools = [] }
            return state.pools
        }
        for pool in pools { pool.running.cancel() }
        for pool in pools { await pool.running.value }
    }

    /// `body` on a connection leased from the server in use, waiting at most `pool_timeout` for
    /// it.
    func withConnection<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        // nil when the server is not chosen: nothing to give up after a failure.
        let pool = fixed == nil ? try await poolInUse() : nil
        guard let client = pool?.client ?? fixed else { preconditionFailure("a pool is always chosen or fixed") }
        var probe: (@Sendable () async -> String?)?
        if let pool { probe = { await self.check(pool) } }
        do {
            return try await Self.leasing(from: client, timeout: url.poolTimeout, probe: probe) { connection in
                do {
                    return try await body(connection)
                } catch {
                    if let pool, connection.isClosed || PostgresFailure.saysReadOnly(error) { retire(pool) }
                    throw error
                }
            }
        } catch let error as PoolTimeout {
            if let pool { retire(pool) }
            throw StorageError(reason: "\(url.redacted): \(error.description)")
        } catch let error as ServerGone {
            if let pool { retire(pool) }
            throw StorageError(reason: "\(url.redacted): \(error.description)")
        } catch let error as PSQLError where error.serverInfo == nil {
            // The connection could not be made at all.
            if let pool { retire(pool) }
            throw error
        }
    }

    /// `body` on a connection of `client`, or ``PoolTimeout`` when none is free within
    /// `timeout`: the lease is cancelled (postgres-nio takes the request out of its queue). When
    /// the lease has waited ``probeDelay``, `probe` (if any) checks the server: what it says is
    /// wrong ends the wait as ``ServerGone``.
    private static func leasing<T: Sendable>(
        from client: PostgresClient, timeout: Duration, probe: (@Sendable () async -> String?)?,
        _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            try await withThrowingTaskGroup(of: T?.self) { group in
                let leased = LeaseFlag()
                group.addTask {
                    try await client.withConnection { connection in
                        leased.value.store(true, ordering: .relaxed)
                        return try await body(connection)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    if !leased.value.load(ordering: .relaxed) { throw PoolTimeout(timeout: timeout) }
                    return nil
                }
                if let probe, timeout > probeDelay {
                    group.addTask {
                        try await Task.sleep(for: probeDelay)
                        guard !leased.value.load(ordering: .relaxed), let problem = await probe(),
                            !leased.value.load(ordering: .relaxed)
                        else { return nil }
                        throw ServerGone(problem: problem)
                    }
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let result { return result }
                }
                throw CancellationError()
            }
        }
    }

    /// The pool of the server to use: the one chosen, or that of the first usable one found now.
    private func poolInUse() async throws -> ServerPool {
        enum Step {
            case use(ServerPool)
            case fail(StorageError)
            case wait(Task<ServerPool, any Error>)
        }
        let step: Step = state.withLock { state in
            if let current = state.current { return .use(current) }
            if state.closed { return .fail(StorageError(reason: "\(url.redacted): the store is closed")) }
            if let failure = state.failure, failure.at.duration(to: .now) < Self.searchPause { return .fail(failure.error) }
            if let search = state.search { return .wait(search) }
            let search = Task { try await self.search() }
            state.search = search
            return .wait(search)
        }
        switch step {
        case .use(let pool): return pool
        case .fail(let error): throw error
        case .wait(let search): return try await search.value
        }
    }

    /// Looks for a usable server and, when one is found, makes and runs its pool.
    private func search() async throws -> ServerPool {
        do {
            let (connection, index) = try await Self.connect(url, timeout: min(connectTimeout, url.poolTimeout), logger: logger)
            try? await connection.close()
            let client = Self.client(url, url.endpoints[index], maximumConnections, connectTimeout, logger)
            // Immediately: the pool is marked running before any lease reaches it.
            let pool = ServerPool(index: index, client: client, running: Task.immediate { await client.run() })
            let kept = state.withLock { state in
                state.search = nil
                guard !state.closed else { return false }
                state.current = pool
                state.pools.append(pool)
                state.failure = nil
                return true
            }
            guard kept else {
                pool.running.cancel()
                throw StorageError(reason: "\(url.redacted): the store is closed")
            }
            if url.endpoints.count > 1 { logger.notice("using \(Self.name(url.endpoints[index]))") }
            return pool
        } catch {
            let failure = error as? StorageError ?? StorageError(postgres: error, location: url.redacted)
            state.withLock {
                $0.search = nil
                $0.failure = (.now, failure)
            }
            throw failure
        }
    }

    /// What is wrong with `pool`'s server — it takes no connection, or no writes where they are
    /// needed — or nil when it is fine (the pool is only busy). One check at a time per pool, its
    /// answer kept for ``searchPause``: a burst of slow leases is not a burst of connections.
    private func check(_ pool: ServerPool) async -> String? {
        let check = pool.probe.withLock { probe in
            if let last = probe, last.at.duration(to: .now) < Self.searchPause { return last.task }
            let endpoint = url.endpoints[pool.index]
            let (url, logger, timeout) = (self.url, self.logger, min(connectTimeout, url.poolTimeout))
            let task = Task { await Self.problem(with: endpoint, of: url, timeout: timeout, logger: logger) }
            probe = (.now, task)
            return task
        }
        return await check.value
    }

    /// What keeps `endpoint` from being used as `url` asks, or nil when nothing does.
    private static func problem(
        with endpoint: PostgresDatabaseURL.Endpoint, of url: PostgresDatabaseURL, timeout: Duration, logger: Logger
    ) async -> String? {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                on: PostgresEventLoops.group.next(),
                configuration: try url.connectionConfiguration(for: endpoint, connectTimeout: timeout), id: -1, logger: logger)
        } catch {
            return "\(name(endpoint)): \(PostgresFailure.describe(error))"
        }
        let problem: String?
        do {
            problem =
                try await accepts(connection, url.targetSessionAttributes, logger: logger)
                ? nil : "\(name(endpoint)): read-only (a standby?)"
        } catch {
            problem = "\(name(endpoint)): \(PostgresFailure.describe(error))"
        }
        try? await connection.close()
        return problem
    }

    /// Gives up `pool`'s server after it was lost or answered as read-only: the next request
    /// looks again, and the pool is shut down.
    private func retire(_ pool: ServerPool) {
        let retired = state.withLock { state in
            guard state.current === pool else { return false }
            state.current = nil
            state.pools.removeAll { $0 === pool }
            return true
        }
        guard retired else { return }
        pool.running.cancel()
        logger.warning("\(Self.name(url.endpoints[pool.index])) is lost or read-only; looking for a server that accepts writes")
    }

    /// A connection to the first of `url`'s servers that accepts one and, as
    /// `target_session_attrs` asks, writes; and that server's index.
    ///
    /// - Throws: With one host, what the server (or the way to it) said; with several,
    ///   ``WalletCore/StorageError`` naming what each said.
    static func connect(
        _ url: PostgresDatabaseURL, timeout: Duration, logger: Logger
    ) async throws -> (PostgresConnection, Int) {
        var failures: [String] = []
        for (index, endpoint) in url.endpoints.enumerated() {
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(
                    on: PostgresEventLoops.group.next(),
                    configuration: try url.connectionConfiguration(for: endpoint, connectTimeout: timeout), id: index,
                    logger: logger)
            } catch {
                if url.endpoints.count == 1 { throw error }
                failures.append("\(name(endpoint)): \(PostgresFailure.describe(error))")
                continue
            }
            do {
                if try await accepts(connection, url.targetSessionAttributes, logger: logger) { return (connection, index) }
                failures.append("\(name(endpoint)): read-only (a standby?)")
            } catch {
                failures.append("\(name(endpoint)): \(PostgresFailure.describe(error))")
            }
            try? await connection.close()
        }
        let wanted = url.targetSessionAttributes == .any ? "accepts a connection" : "accepts writes"
        throw StorageError(
            reason: "\(url.redacted): no server \(wanted) (target_session_attrs=\(url.targetSessionAttributes.rawValue)): "
                + failures.joined(separator: "; "))
    }

    /// Whether the server `connection` reaches is one `attributes` accepts — libpq's check:
    /// `transaction_read_only` off for `read-write`, not in recovery for `primary`.
    private static func accepts(
        _ connection: PostgresConnection, _ attributes: PostgresDatabaseURL.TargetSessionAttributes, logger: Logger
    ) async throws -> Bool {
        switch attributes {
        case .any: return true
        case .readWrite: return try await connection.value(String.self, "SHOW transaction_read_only", logger: logger) == "off"
        case .primary: return try await connection.value(Bool.self, "SELECT pg_is_in_recovery()", logger: logger) == false
        }
    }

    /// `host:port` or the socket file, for messages.
    static func name(_ endpoint: PostgresDatabaseURL.Endpoint) -> String {
        switch endpoint {
        case .tcp(let host, let port): "\(host):\(port)"
        case .unixSocket(let path): path
        }
    }
}

/// A chosen server's pool and the task that runs it.
private final class ServerPool: Sendable {
    let index: Int
    let client: PostgresClient
    let running: Task<Void, Never>
    /// The last check of the server, while a lease waited (``PostgresServers/check(_:)``).
    let probe = Mutex<(at: ContinuousClock.Instant, task: Task<String?, Never>)?>(nil)

    init(index: Int, client: PostgresClient, running: Task<Void, Never>) {
        self.index = index
        self.client = client
        self.running = running
    }
}

/// Whether a lease was granted, shared by the lease and its timer.
private final class LeaseFlag: Sendable {
    let value = Atomic<Bool>(false)
}

/// A lease waited, and a check of the server found it unusable: it takes no connection, or no
/// writes where they are needed.
struct ServerGone: Error, CustomStringConvertible {
    var problem: String

    var description: String { "the server in use is gone or no longer accepts writes (\(problem))" }
}

/// No connection was free (or could be made) within the URL's `pool_timeout`.
struct PoolTimeout: Error, CustomStringConvertible {
    var timeout: Duration

    var description: String {
        "no connection to the database within \(timeout) (pool_timeout): the pool is busy or the server does not answer"
    }
}
