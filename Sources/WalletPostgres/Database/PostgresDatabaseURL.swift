import Foundation

/// Where a PostgreSQL store lives, parsed from the URL `--database` and `ORDERS_DATABASE` take:
///
/// ```
/// postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full]
/// postgres://USER@/DATABASE?host=/var/run/postgresql        (a Unix socket directory)
/// postgres://USER@%2Fvar%2Frun%2Fpostgresql/DATABASE           (the same, as libpq spells it)
/// ```
///
/// As libpq: `postgresql://` is accepted too, the port defaults to 5432, the database to the
/// user, and `sslmode` to `prefer` over TCP (never TLS over a Unix socket).
///
/// Not libpq's: `prepared=false` runs every statement unnamed (parsed on each execution) instead
/// of preparing the repeated ones once per connection — for a connection pooler that hands a
/// connection's statements to different server sessions, such as PgBouncer with
/// `pool_mode = transaction` (docs/scaling-out.md).
public struct PostgresDatabaseURL: Sendable, Hashable {
    public enum Endpoint: Sendable, Hashable {
        case tcp(host: String, port: Int)
        /// The socket file, `DIRECTORY/.s.PGSQL.PORT`.
        case unixSocket(path: String)
    }

    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        case disable, prefer, require
        case verifyFull = "verify-full"
    }

    public var endpoint: Endpoint
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// Whether statements the store repeats are prepared once per connection (`prepared`,
    /// default true).
    public var prepared: Bool

    /// Parses `text`; the error names the part that is wrong, never the password.
    public init(_ text: String) throws(PostgresURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .malformed("not a URL")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw .malformed("the scheme must be postgres:// or postgresql://")
        }
        guard let user = components.user?.removingPercentEncoding, !user.isEmpty else {
            throw .malformed("no user (postgres://USER@HOST/DATABASE)")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard query[item.name] == nil else { throw .malformed("the parameter \(item.name) is given twice") }
            query[item.name] = item.value ?? ""
        }
        let known: Set<String> = ["host", "port", "sslmode", "prepared"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw .malformed("unknown parameter \(unknown) (known: host, port, sslmode, prepared)")
        }
        switch query["prepared"] {
        case nil, "true": prepared = true
        case "false": prepared = false
        default: throw .malformed("prepared must be true or false")
        }
        var port = 5432
        if let text = components.port.map(String.init) ?? query["port"] {
            guard let value = Int(text), (1...65535).contains(value) else { throw .malformed("the port must be 1…65535") }
            port = value
        }
        let host = query["host"] ?? components.percentEncodedHost?.removingPercentEncoding ?? ""
        if host.hasPrefix("/") {
            endpoint = .unixSocket(path: (host.hasSuffix("/") ? String(host.dropLast()) : host) + "/.s.PGSQL.\(port)")
        } else if host.isEmpty {
            throw .malformed("no host: give HOST, or ?host=/socket/directory")
        } else {
            endpoint = .tcp(host: host, port: port)
        }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw .malformed("the path must be one database name") }
        self.user = user
        self.password = components.password?.removingPercentEncoding
        self.database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        if let mode = query["sslmode"] {
            guard let value = TLSMode(rawValue: mode) else {
                throw .malformed("sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if case .unixSocket = endpoint, value == .require || value == .verifyFull {
                throw .malformed("sslmode=\(mode) cannot be used over a Unix socket")
            }
            tls = value
        } else {
            if case .unixSocket = endpoint { tls = .disable } else { tls = .prefer }
        }
    }

    /// The URL without its password, for messages and logs.
    public var redacted: String {
        let options = prepared ? "" : "prepared=false"
        switch endpoint {
        case .tcp(let host, let port):
            return "postgres://\(user)@\(host):\(port)/\(database)" + (options.isEmpty ? "" : "?\(options)")
        case .unixSocket(let path):
            // DIRECTORY/.s.PGSQL.PORT, as the parser built it.
            let file = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            let directory = String(path.dropLast(file.count + 1))
            let port = file.split(separator: ".").last.map(String.init) ?? "5432"
            return "postgres://\(user)@/\(database)?host=\(directory)" + (port == "5432" ? "" : "&port=\(port)")
                + (options.isEmpty ? "" : "&\(options)")
        }
    }
}

/// A `--database` URL that cannot be used; the message never contains the password.
public enum PostgresURLError: Error, Hashable, Sendable {
    case malformed(String)
}
