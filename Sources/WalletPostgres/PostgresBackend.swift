import FinanceData
import Foundation
import Logging
import NIOSSL
import OrderStorage
import PostgresNIO
import Tracing
import WalletCore
import WalletPrimitives
import WalletStorage

/// The server backend: a PostgreSQL database (or an engine speaking its protocol) shared by any
/// number of processes, through a pool of postgres-nio connections.
///
/// ```swift
/// let url = try PostgresDatabaseURL("postgres://wallet@db.internal/wallet?sslmode=verify-full")
/// let backend = try await PostgresBackend.open(url)
/// let wallet = WalletStore(backend: backend, configuration: WalletConfiguration())
/// ```
///
/// Opening migrates the database (``PostgresSchema``) unless ``Options/createIfMissing`` is false;
/// it refuses a database written by a newer version. Every write is a transaction that is run
/// again when the server reports a serialization failure or deadlock (``PostgresExecutor``), so
/// a unit of work's body may run more than once: keep it to storage work.
public final class PostgresBackend: StorageBackend, SQLStorageBackend {
    /// How the database is opened.
    public struct Options: Sendable {
        /// False for readers: a database without this tool's tables (or with older ones) is then
        /// an error, and nothing is created or migrated.
        public var createIfMissing: Bool
        /// The most connections this process opens.
        public var maximumConnections: Int
        /// How long to wait for the server to accept a connection.
        public var connectTimeout: Duration
        /// Who runs the connection pool.
        public var poolLifetime: PoolLifetime
        /// Where each read and unit of work is a span (swift-distributed-tracing): nil for the
        /// tracer bootstrapped with `InstrumentationSystem` when the backend opens — none, no spans.
        public var tracer: (any Tracer)?

        public init(
            createIfMissing: Bool = true, maximumConnections: Int = 20, connectTimeout: Duration = .seconds(10),
            poolLifetime: PoolLifetime = .untilClosed, tracer: (any Tracer)? = nil
        ) {
            self.createIfMissing = createIfMissing
            self.maximumConnections = maximumConnections
            self.connectTimeout = connectTimeout
            self.poolLifetime = poolLifetime
            self.tracer = tracer
        }
    }

    /// Who runs the connection pool.
    public enum PoolLifetime: Sendable {
        /// The backend, in a task of its own from ``PostgresBackend/open(_:options:logger:)`` to
        /// ``PostgresBackend/close()``: for a program that opens the backend and uses it.
        case untilClosed
        /// Its owner, by calling ``PostgresBackend/run()`` in a task that lives as long as the
        /// backend is used — a `ServiceGroup`, as `OrdersServer` does. Queries wait until it runs.
        case runByOwner
    }

    /// Where the database is.
    public let url: PostgresDatabaseURL
    private let servers: PostgresServers
    /// The pools' task for ``PoolLifetime/untilClosed``; nil when the owner runs them.
    private let running: Task<Void, Never>?
    let executor: PostgresExecutor
    package let repositories: SQLRepositories
    /// ``executor``, traced when a tracer is set: what the repositories run on.
    package let sqlExecutor: any SQLExecutor
    public var location: String { url.redacted }

    private init(
        url: PostgresDatabaseURL, servers: PostgresServers, running: Task<Void, Never>?, logger: Logger,
        tracer: (any Tracer)?
    ) {
        self.url = url
        self.servers = servers
        self.running = running
        executor = PostgresExecutor(servers: servers, logger: logger, location: url.redacted, prepares: url.prepared)
        sqlExecutor = TracedSQLExecutor.wrapping(executor, tracer: tracer, system: "postgresql")
        repositories = SQLRepositories(executor: sqlExecutor)
    }

    /// Connects to the database at `url` and migrates it (see ``Options``).
    ///
    /// The schema is checked or migrated on a connection of its own, made before the pool: the
    /// pool retries a server it cannot reach without failing the request that waits, while one
    /// connection reports at once why it failed (no server, login refused, no such database).
    /// With several hosts, that connection goes to the first that `target_session_attrs`
    /// accepts.
    ///
    /// - Throws: ``WalletCore/StorageError`` naming the database (never its password) when it
    ///   cannot be reached, refuses the login, is not UTF-8, or was written by a newer version.
    public static func open(
        _ url: PostgresDatabaseURL, options: Options = Options(), logger: Logger = Logger(label: "wallet.postgres")
    ) async throws(StorageError) -> PostgresBackend {
        let connectTimeout = url.connectTimeout ?? options.connectTimeout
        do {
            try url.checkTLSFiles()
        } catch {
            guard case .malformed(let reason) = error else { throw StorageError(reason: "\(url.redacted): \(error)") }
            throw StorageError(reason: "\(url.redacted): \(reason)")
        }
        do {
            let (connection, _) = try await PostgresServers.connect(url, timeout: connectTimeout, logger: logger)
            do {
                if options.createIfMissing {
                    try await PostgresSchema.migrate(on: connection, logger: logger, location: url.redacted)
                } else {
                    try await PostgresSchema.check(on: connection, logger: logger, location: url.redacted)
                }
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(postgres: error, location: url.redacted)
        }
        let servers = PostgresServers(
            url: url, maximumConnections: url.poolSize ?? options.maximumConnections, connectTimeout: connectTimeout,
            logger: logger)
        var running: Task<Void, Never>?
        if options.poolLifetime == .untilClosed {
            // Started immediately, on this thread, up to its first suspension: `run()` marks the
            // clients running before that, so no query made after `open` returns can find one
            // not yet running (postgres-nio warns "run() hasn't been called yet", and such a
            // lease waits).
            running = Task.immediate { await servers.run() }
        }
        return PostgresBackend(url: url, servers: servers, running: running, logger: logger, tracer: options.tracer)
    }

    /// Runs the connection pools until the calling task is cancelled, for a backend opened with
    /// ``PoolLifetime/runByOwner``; returns at once for one that runs its own.
    public func run() async {
        guard running == nil else { return }
        await servers.run()
    }

    /// Stops the pools this backend runs itself (``PoolLifetime/untilClosed``); pools run by
    /// their owner stop when the owner cancels ``run()``.
    public func close() async throws {
        running?.cancel()
        await running?.value
    }

    /// The backend's threads (``PostgresThreads``), shared by every PostgreSQL store of the
    /// process.
    public var taskExecutor: any TaskExecutor { PostgresThreads.shared }
}

extension PostgresDatabaseURL {
    /// One connection's configuration to `endpoint`, TLS as in ``clientConfiguration``.
    func connectionConfiguration(for endpoint: Endpoint, connectTimeout: Duration) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch endpoint {
        case .unixSocket(let path):
            configuration = .init(unixSocketPath: path, username: user, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS =
                switch self.tls {
                case .disable: .disable
                case .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration))
                case .require, .verifyCA, .verifyFull: .require(try NIOSSLContext(configuration: tlsConfiguration))
                }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .nanoseconds(
            connectTimeout.components.seconds * 1_000_000_000 + connectTimeout.components.attoseconds / 1_000_000_000)
        return configuration
    }

    /// TLS as libpq's `sslmode` means it: `prefer` and `require` encrypt without checking the
    /// certificate (`require` checks the chain when `sslrootcert` names roots, as libpq does);
    /// `verify-ca` checks the chain, `verify-full` the host name too. The roots are `sslrootcert`'s,
    /// else the system's; `sslcert` and `sslkey`, when given, are presented to the server.
    var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable, .prefer: configuration.certificateVerification = .none
        case .require:
            configuration.certificateVerification = rootCertificatePath == nil ? .none : .noHostnameVerification
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let rootCertificatePath { configuration.trustRoots = .file(rootCertificatePath) }
        if let clientCertificatePath, let clientKeyPath {
            configuration.certificateChain =
                (try? NIOSSLCertificate.fromPEMFile(clientCertificatePath))?.map { .certificate($0) } ?? []
            configuration.privateKey = (try? NIOSSLPrivateKey(file: clientKeyPath, format: .pem)).map { .privateKey($0) }
        }
        return configuration
    }

    /// The TLS files this URL names, checked as libpq checks them before it connects: each
    /// readable, a root file holding certificates, the client key private (0600 or less, or 0640
    /// owned by root).
    func checkTLSFiles() throws(PostgresURLError) {
        for (parameter, path) in [
            ("sslrootcert", rootCertificatePath), ("sslcert", clientCertificatePath), ("sslkey", clientKeyPath),
        ] {
            guard let path else { continue }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw .malformed("\(parameter)=\(path) cannot be read")
            }
            if parameter != "sslkey", (try? NIOSSLCertificate.fromPEMFile(path))?.isEmpty != false {
                throw .malformed("\(parameter)=\(path) holds no PEM certificate")
            }
            if parameter == "sslkey", (try? NIOSSLPrivateKey(file: path, format: .pem)) == nil {
                throw .malformed("sslkey=\(path) holds no PEM private key (an encrypted one is not supported)")
            }
        }
        if let clientKeyPath, let attributes = try? FileManager.default.attributesOfItem(atPath: clientKeyPath),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.uint16Value,
            let owner = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value
        {
            let allowed: UInt16 = owner == 0 && geteuid() != 0 ? 0o640 : 0o600
            guard mode & ~allowed & 0o777 == 0 else {
                throw .malformed(
                    "sslkey=\(clientKeyPath) has group or world access (mode \(String(mode & 0o777, radix: 8))); "
                        + "make it 0600 (or 0640 owned by root), as libpq requires")
            }
        }
    }

    /// postgres-nio's configuration for this URL: TLS as ``tlsConfiguration`` says.
    public var clientConfiguration: PostgresClient.Configuration { clientConfiguration(for: endpoint) }

    /// postgres-nio's configuration for one of this URL's hosts.
    func clientConfiguration(for endpoint: Endpoint) -> PostgresClient.Configuration {
        switch endpoint {
        case .unixSocket(let path):
            return PostgresClient.Configuration(unixSocketPath: path, username: user, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS =
                switch self.tls {
                case .disable: .disable
                case .prefer: .prefer(tlsConfiguration)
                case .require, .verifyCA, .verifyFull: .require(tlsConfiguration)
                }
            return PostgresClient.Configuration(
                host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
    }
}
