import Foundation

/// Where a PostgreSQL store lives, parsed from the URL `--database` and `ORDERS_DATABASE` take:
///
/// ```
/// postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-ca|verify-full]
/// postgres://USER@db.internal/DATABASE?sslmode=verify-full&sslrootcert=/etc/orders/db-ca.pem&sslcert=…&sslkey=…
/// postgres://USER@/DATABASE?host=/var/run/postgresql        (a Unix socket directory)
/// postgres://USER@%2Fvar%2Frun%2Fpostgresql/DATABASE           (the same, as libpq spells it)
/// postgres://USER@db1:5432,db2:5432/DATABASE?target_session_attrs=read-write
/// ```
///
/// As libpq: `postgresql://` is accepted too, the port defaults to 5432, the database to the
/// user, and `sslmode` to `prefer` over TCP (never TLS over a Unix socket). Several hosts —
/// `HOST1[:PORT1],HOST2[:PORT2]` or `?host=H1,H2&port=P1,P2` — are tried in order, and with
/// `target_session_attrs=read-write` (or `primary`) only a server that accepts writes is used:
/// after a failover the store finds the promoted standby itself (docs/scaling-out.md).
///
/// TLS as libpq does it: `verify-ca` checks the server's certificate against the trusted roots,
/// `verify-full` its host name as well; the roots are `sslrootcert` (a PEM file, a managed
/// service's own CA; `PGSSLROOTCERT` when the URL names none; `system`: the system's roots),
/// else the system's. With a root file, `require` verifies as `verify-ca` does (libpq's rule).
/// `sslcert` and `sslkey` are a client certificate and its key, for `pg_hba.conf`'s `cert`
/// method; the key must be private (0600, or 0640 owned by root), as libpq requires.
///
/// Not libpq's: `prepared=false` runs every statement unnamed (parsed on each execution) instead
/// of preparing the repeated ones once per connection — for a connection pooler that hands a
/// connection's statements to different server sessions, such as PgBouncer with
/// `pool_mode = transaction` (docs/scaling-out.md); `pool_size=N` (1…1000), the most connections
/// this process opens to the server; `pool_timeout=SECONDS` (0.01…600, default 10), how long a
/// request waits for one of them (or for a server that accepts writes) before it fails with
/// `store.unavailable`, which the service answers `503` with `Retry-After`. As libpq's,
/// `connect_timeout=SECONDS` (here 0.01…600; default 10) bounds each attempt to reach a server.
public struct PostgresDatabaseURL: Sendable, Hashable {
    public enum Endpoint: Sendable, Hashable {
        case tcp(host: String, port: Int)
        /// The socket file, `DIRECTORY/.s.PGSQL.PORT`.
        case unixSocket(path: String)
    }

    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// libpq's `target_session_attrs`: which of the hosts a connection may use.
    public enum TargetSessionAttributes: String, Sendable, Hashable, CaseIterable {
        /// The first host that accepts the connection.
        case any
        /// The first host whose sessions accept writes (`SHOW transaction_read_only` is `off`).
        case readWrite = "read-write"
        /// PostgreSQL 14's name for the same check here: a server not in recovery.
        case primary
    }

    /// The hosts, in the order they are tried; never empty.
    public var endpoints: [Endpoint]
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// `sslrootcert`: the PEM file of the roots the server's certificate must chain to (nil: the
    /// system's roots).
    public var rootCertificatePath: String?
    /// `sslcert` and `sslkey`: the client certificate (PEM) and its private key.
    public var clientCertificatePath: String?
    public var clientKeyPath: String?
    /// Which host is used when there are several (or whether the one must accept writes).
    public var targetSessionAttributes: TargetSessionAttributes
    /// Whether statements the store repeats are prepared once per connection (`prepared`,
    /// default true).
    public var prepared: Bool
    /// The most connections this process opens (`pool_size`), when the URL says.
    public var poolSize: Int?
    /// How long a request waits for a connection (`pool_timeout`, default 10 s).
    public var poolTimeout: Duration
    /// How long one attempt to reach a server may take (`connect_timeout`), when the URL says;
    /// otherwise the backend's option (10 s by default).
    public var connectTimeout: Duration?

    /// The first host, where a single-host deployment's database is.
    public var endpoint: Endpoint {
        get { endpoints[0] }
        set { endpoints = [newValue] }
    }

    /// The default `pool_timeout`.
    public static let defaultPoolTimeout: Duration = .seconds(10)

    /// Parses `text`; the error names the part that is wrong, never the password. `environment`
    /// supplies `PGSSLROOTCERT` when the URL names no `sslrootcert`.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresURLError) {
        // URLComponents takes one host; a libpq host list (`h1:p1,h2:p2`) is read here and the
        // first host alone handed on.
        var text = text
        var listedHosts: [(host: String, port: String?)] = []
        if let schemeEnd = text.range(of: "://") {
            let rest = text[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            let hostsStart = authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex
            let hosts = authority[hostsStart...]
            if hosts.contains(",") {
                for item in hosts.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let parsed = Self.hostAndPort(item) else {
                        throw .malformed("the host list has an empty or malformed host")
                    }
                    listedHosts.append(parsed)
                }
                let first = listedHosts[0]
                text.replaceSubrange(hosts.startIndex..<hosts.endIndex, with: first.host + (first.port.map { ":\($0)" } ?? ""))
            }
        }
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
        let known = [
            "host", "port", "sslmode", "sslrootcert", "sslcert", "sslkey", "target_session_attrs", "prepared", "pool_size",
            "pool_timeout", "connect_timeout",
        ]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw .malformed("unknown parameter \(unknown) (known: \(known.joined(separator: ", ")))")
        }
        switch query["prepared"] {
        case nil, "true": prepared = true
        case "false": prepared = false
        default: throw .malformed("prepared must be true or false")
        }
        if let text = query["pool_size"] {
            guard let size = Int(text), (1...1000).contains(size) else { throw .malformed("pool_size must be 1…1000") }
            poolSize = size
        } else {
            poolSize = nil
        }
        poolTimeout =
            try query["pool_timeout"].map { text throws(PostgresURLError) in
                try Self.seconds(text, parameter: "pool_timeout")
            } ?? Self.defaultPoolTimeout
        connectTimeout = try query["connect_timeout"].map { text throws(PostgresURLError) in
            try Self.seconds(text, parameter: "connect_timeout")
        }
        if let text = query["target_session_attrs"] {
            guard let value = TargetSessionAttributes(rawValue: text) else {
                throw .malformed(
                    "target_session_attrs must be one of \(TargetSessionAttributes.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            targetSessionAttributes = value
        } else {
            targetSessionAttributes = .any
        }
        // Hosts: the authority's list, else `?host=` (a comma-separated list too), else the
        // authority's one host; ports pair with them, or one port serves them all.
        var hosts: [(host: String, port: String?)] = listedHosts
        if hosts.isEmpty {
            if let text = query["host"] {
                hosts = text.split(separator: ",", omittingEmptySubsequences: false).map { (String($0), nil) }
            } else {
                hosts = [(components.percentEncodedHost?.removingPercentEncoding ?? "", components.port.map(String.init))]
            }
        } else if query["host"] != nil {
            throw .malformed("give the hosts in the authority or in ?host=, not both")
        }
        let ports = query["port"].map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
        guard ports.count <= 1 || ports.count == hosts.count else {
            throw .malformed("give one port, or as many ports as hosts")
        }
        var endpoints: [Endpoint] = []
        for (index, entry) in hosts.enumerated() {
            var port = 5432
            if let text = entry.port ?? (ports.count == hosts.count ? ports[index] : ports.first) {
                guard let value = Int(text), (1...65535).contains(value) else { throw .malformed("the port must be 1…65535") }
                port = value
            }
            let host = entry.host
            if host.hasPrefix("/") {
                endpoints.append(.unixSocket(path: (host.hasSuffix("/") ? String(host.dropLast()) : host) + "/.s.PGSQL.\(port)"))
            } else if host.isEmpty {
                throw .malformed("no host: give HOST, or ?host=/socket/directory")
            } else {
                endpoints.append(.tcp(host: host, port: port))
            }
        }
        guard endpoints.count <= 16 else { throw .malformed("at most 16 hosts") }
        self.endpoints = endpoints
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw .malformed("the path must be one database name") }
        self.user = user
        self.password = components.password?.removingPercentEncoding
        self.database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        let socketCount = endpoints.count { if case .unixSocket = $0 { true } else { false } }
        guard socketCount == 0 || socketCount == endpoints.count else {
            throw .malformed("the hosts must be all TCP hosts or all socket directories")
        }
        let sockets = socketCount > 0
        if let mode = query["sslmode"] {
            guard let value = TLSMode(rawValue: mode) else {
                throw .malformed("sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if sockets, value == .require || value == .verifyCA || value == .verifyFull {
                throw .malformed("sslmode=\(mode) cannot be used over a Unix socket")
            }
            tls = value
        } else {
            tls = sockets ? .disable : .prefer
        }
        let root = query["sslrootcert"] ?? environment["PGSSLROOTCERT"].flatMap { $0.isEmpty ? nil : $0 }
        rootCertificatePath = root == "system" ? nil : root
        clientCertificatePath = query["sslcert"]
        clientKeyPath = query["sslkey"]
        for (parameter, path) in [
            ("sslrootcert", query["sslrootcert"]), ("sslcert", query["sslcert"]), ("sslkey", query["sslkey"]),
        ] {
            if let path, path.isEmpty || (!path.hasPrefix("/") && !(parameter == "sslrootcert" && path == "system")) {
                throw .malformed("\(parameter) must be an absolute path")
            }
        }
        guard (clientCertificatePath == nil) == (clientKeyPath == nil) else {
            throw .malformed("give sslcert and sslkey together")
        }
    }

    /// `host[:port]` or `[v6]:port` from a host list, nil when the host is empty.
    private static func hostAndPort(_ item: Substring) -> (host: String, port: String?)? {
        var host = item
        var port: String?
        if item.hasPrefix("["), let close = item.firstIndex(of: "]") {
            host = item[item.index(after: item.startIndex)..<close]
            let after = item[item.index(after: close)...]
            if after.hasPrefix(":") { port = String(after.dropFirst()) } else if !after.isEmpty { return nil }
        } else if let colon = item.lastIndex(of: ":") {
            host = item[..<colon]
            port = String(item[item.index(after: colon)...])
        }
        guard !host.isEmpty, let decoded = host.removingPercentEncoding else { return nil }
        return (decoded, port)
    }

    /// The URL without its password, for messages and logs: every other setting that differs
    /// from its default is kept, so that it parses back to this URL without the password.
    public var redacted: String {
        var options: [String] = []
        let sockets = endpoints.allSatisfy { if case .unixSocket = $0 { true } else { false } }
        if tls != (sockets ? .disable : .prefer) { options.append("sslmode=\(tls.rawValue)") }
        if let rootCertificatePath { options.append("sslrootcert=\(rootCertificatePath)") }
        if let clientCertificatePath, let clientKeyPath {
            options.append("sslcert=\(clientCertificatePath)")
            options.append("sslkey=\(clientKeyPath)")
        }
        if targetSessionAttributes != .any { options.append("target_session_attrs=\(targetSessionAttributes.rawValue)") }
        if !prepared { options.append("prepared=false") }
        if let poolSize { options.append("pool_size=\(poolSize)") }
        if poolTimeout != Self.defaultPoolTimeout { options.append("pool_timeout=\(Self.seconds(poolTimeout))") }
        if let connectTimeout { options.append("connect_timeout=\(Self.seconds(connectTimeout))") }
        let socketFiles = endpoints.compactMap { endpoint -> (directory: String, port: String)? in
            guard case .unixSocket(let path) = endpoint else { return nil }
            // DIRECTORY/.s.PGSQL.PORT, as the parser built it.
            let file = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            return (String(path.dropLast(file.count + 1)), file.split(separator: ".").last.map(String.init) ?? "5432")
        }
        if sockets {
            let ports = socketFiles.map(\.port)
            let port = ports.allSatisfy { $0 == "5432" } ? [] : ["port=\(ports.joined(separator: ","))"]
            let query = ["host=\(socketFiles.map(\.directory).joined(separator: ","))"] + port + options
            return "postgres://\(user)@/\(database)?" + query.joined(separator: "&")
        }
        let hosts = endpoints.map { endpoint in
            switch endpoint {
            case .tcp(let host, let port): (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
            case .unixSocket(let path): path  // not reached: the parser takes no mixed list
            }
        }
        return "postgres://\(user)@\(hosts.joined(separator: ","))/\(database)"
            + (options.isEmpty ? "" : "?" + options.joined(separator: "&"))
    }

    /// A duration parameter's value: 0.01…600 seconds.
    private static func seconds(_ text: String, parameter: String) throws(PostgresURLError) -> Duration {
        guard let seconds = Double(text), seconds >= 0.01, seconds <= 600 else {
            throw .malformed("\(parameter) must be 0.01…600 seconds")
        }
        return .milliseconds(Int((seconds * 1000).rounded()))
    }

    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : String(format: "%.3f", Double(milliseconds) / 1000)
    }
}

/// A `--database` URL that cannot be used; the message never contains the password.
public enum PostgresURLError: Error, Hashable, Sendable {
    case malformed(String)
}
