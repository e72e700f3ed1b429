import Foundation
import PostgresNIO
import WalletCore
import WalletPrimitives
import _ConnectionPoolModule

/// What PostgreSQL (or the way to it) reported, in words: postgres-nio's own description of an
/// error is deliberately generic, so the server's message and SQLSTATE are read out here.
enum PostgresFailure {
    /// SQLSTATEs after which the whole transaction is run again: serialization failure and
    /// deadlock, which PostgreSQL reports under contention and CockroachDB for any conflict.
    static let retryableStates: Set<String> = ["40001", "40P01"]

    /// SQLSTATEs of a prepared statement missing where it was made (26000) or made twice
    /// (42P05): the connection's statements reach more than one server session.
    static let lostPreparedStatementStates: Set<String> = ["26000", "42P05"]

    /// Whether `error` says the server accepts no writes (SQLSTATE 25006): it is a standby, or
    /// was demoted, and another host should be used.
    static func saysReadOnly(_ error: any Error) -> Bool {
        if let state = sqlState(of: error) { return state == "25006" }
        return (error as? any WalletError)?.message.hasSuffix("[SQLSTATE 25006]") == true
    }

    /// The SQLSTATE of a server error, if `error` is one.
    static func sqlState(of error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Whether the transaction `error` ended should be run again. Inside a unit of work a
    /// repository has already turned the server's error into the library's (its protocol's typed
    /// throw), whose message ends with the SQLSTATE ``describe(_:)`` wrote.
    static func isRetryable(_ error: any Error) -> Bool {
        if let state = sqlState(of: error) { return retryableStates.contains(state) }
        guard let error = error as? any WalletError else { return false }
        return retryableStates.contains { error.message.hasSuffix("[SQLSTATE \($0)]") }
    }

    /// One line for people: the server's message and SQLSTATE, or what failed on the way to it —
    /// never a library's type or case name.
    static func describe(_ error: any Error) -> String {
        if let error = error as? ConnectionPoolError { return describe(pool: error) }
        guard let error = error as? PSQLError else { return "\(error)" }
        if let info = error.serverInfo, let state = info[.sqlState], lostPreparedStatementStates.contains(state),
            info[.message]?.contains("\"wallet_") == true
        {
            return "the server does not have a statement this connection prepared (a pooler in transaction mode, "
                + "such as PgBouncer's pool_mode = transaction?): add prepared=false to the database URL [SQLSTATE \(state)]"
        }
        if let info = error.serverInfo, let message = info[.message] {
            let detail = info[.detail].map { " (\($0))" } ?? ""
            return "\(message)\(detail) [SQLSTATE \(info[.sqlState] ?? "?")]"
        }
        if case .connectTimeout(let amount)? = connectionFailure(error, as: ChannelError.self) {
            let seconds = String(format: "%g", Double(amount.nanoseconds) / 1_000_000_000)
            return "no answer from the server within \(seconds) s (connect_timeout)"
        }
        if let system = connectionFailure(error, as: IOError.self) {
            return "cannot connect: \(String(cString: strerror(system.errnoCode)))"
        }
        if let tls = error.underlying as? NIOSSLError {
            return "\(tls)".contains("CERTIFICATE_VERIFY_FAILED")
                ? "TLS: the server's certificate is not signed by a trusted root (sslrootcert, else the system's roots) "
                    + "or does not name this host (verify-full)"
                : "TLS handshake failed (\(tls))"
        }
        let words = describe(code: error.code)
        if let underlying = error.underlying, !(underlying is ConnectionPoolError) { return "\(words) (\(underlying))" }
        return words
    }

    /// Why the connection could not be made, as `T`: the error itself, or the first attempt's
    /// when NIO tried several addresses.
    private static func connectionFailure<T: Error>(_ error: PSQLError, as _: T.Type) -> T? {
        error.underlying as? T ?? (error.underlying as? NIOConnectionError)?.connectionErrors.first?.error as? T
    }

    /// postgres-nio's failures without a server message, in words.
    private static func describe(code: PSQLError.Code) -> String {
        switch code {
        case .serverClosedConnection: "the server closed the connection (it stopped, restarted or ended the session)"
        case .clientClosedConnection: "the connection was closed"
        case .connectionError: "cannot reach the server"
        case .uncleanShutdown: "the connection ended without the server's goodbye"
        case .poolClosed: "the store is closed"
        case .queryCancelled: "the statement was cancelled"
        case .sslUnsupported: "the server does not offer TLS (sslmode)"
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError: "authentication failed"
        case .messageDecodingFailure, .unexpectedBackendMessage, .invalidCommandTag:
            "the server's answer could not be read (is it PostgreSQL?)"
        default: "the connection failed"
        }
    }

    /// The connection pool's refusals, in words.
    private static func describe(pool error: ConnectionPoolError) -> String {
        switch error {
        case .poolShutdown: "the server was given up (lost, or no longer accepting writes) while this request waited for it"
        case .connectionCreationCircuitBreakerTripped: "cannot connect to the server (every attempt has failed for a while)"
        case .requestCancelled: "the wait for a connection was cancelled"
        default: "no connection to the server"
        }
    }
}

extension StorageError {
    /// A database error, naming where the database is (never its password).
    init(postgres error: any Error, location: String) {
        self.init(reason: "\(location): \(PostgresFailure.describe(error))")
    }
}
