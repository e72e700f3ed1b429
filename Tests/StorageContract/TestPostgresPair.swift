import Foundation
import PostgresNIO
import TestArchiveTable
import WalletPostgres

/// The primary and its synchronous standby that `Scripts/with-postgres.sh` starts for the
/// failover tests (`ORDERS_TEST_POSTGRES_PAIR`, driven by `Scripts/postgres-pair.sh`).
public enum TestPostgresPair {
    public static let directory: String? = ProcessInfo.processInfo.environment["ORDERS_TEST_POSTGRES_PAIR"]

    public static let skipNote =
        "ORDERS_TEST_POSTGRES_PAIR is not set: failover tests skipped (Scripts/with-postgres.sh swift test runs them)"

    /// The URL naming both servers, `target_session_attrs=read-write`, for `database`, with
    /// `options` (`name=value&…`) added.
    public static func url(database: String, options: String = "") throws -> String {
        let base = try script("url").trimmingCharacters(in: .whitespacesAndNewlines)
        return base.replacingOccurrences(of: "/postgres?", with: "/\(database)?") + (options.isEmpty ? "" : "&\(options)")
    }

    /// The URL of the server that is primary now, alone (no `target_session_attrs`).
    public static func primaryURL(database: String, options: String = "") throws -> String {
        guard let directory else { throw TestPostgres.TestPostgresUnavailable() }
        let node = try String(contentsOfFile: "\(directory)/primary", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let port = try String(contentsOfFile: "\(directory)/\(node).port", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let user = getuid() == 0 ? "postgres" : ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        return "postgres://\(user)@127.0.0.1:\(port)/\(database)?sslmode=disable" + (options.isEmpty ? "" : "&\(options)")
    }

    /// A new, empty database on the primary; its name.
    public static func newDatabase() async throws -> String {
        let name = "f_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let administrator = try PostgresDatabaseURL(try primaryURL(database: "postgres"))
        _ = try await TestPostgres.withAdministrator(administrator) { client in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) ENCODING 'UTF8' TEMPLATE template0"))
        }
        return name
    }

    /// `Scripts/postgres-pair.sh COMMAND DIRECTORY [ARGUMENT…]` (`failover`, `switchover fast`,
    /// `rejoin`, `restart`, …), waited for on a thread of its own; its standard output.
    @discardableResult
    public static func run(_ command: String, _ arguments: String...) async throws -> String {
        try await BlockingWork.run { try script(command, arguments) }
    }

    /// Run with posix_spawn and waitpid, not Foundation's `Process`: its exit monitor missed this
    /// script's exit now and then (the child left a zombie and `Process` waited forever), the
    /// script's own children — PostgreSQL servers started and killed — exiting around it.
    private static func script(_ command: String, _ extra: [String] = []) throws -> String {
        guard let directory else { throw TestPostgres.TestPostgresUnavailable() }
        let folder = try TemporaryDirectory.make("postgres-pair")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, errors) = (folder.appendingPathComponent("stdout").path, folder.appendingPathComponent("stderr").path)
        let script = TestArchiveTable.packageRoot.appendingPathComponent("Scripts/postgres-pair.sh").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of this process's: the servers the script starts would inherit every
        // descriptor not marked close-on-exec (pipes, sockets) and, with ~950 of them, PostgreSQL
        // refused to start ("insufficient file descriptors … System allows 44, we need at least 58").
        // (glibc's closefrom action is not visible to Swift; closing one that another thread
        // closed meanwhile is no error in glibc's posix_spawn.)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        let arguments = ["/bin/bash", script, command, directory] + extra
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, &argv, environ)
        guard spawned == 0 else {
            throw PairCommandFailed(description: "cannot run \(script): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw PairCommandFailed(description: "postgres-pair.sh \(command) ended with status \(status): \(message)")
        }
        return text
    }

    struct PairCommandFailed: Error, CustomStringConvertible {
        var description: String
    }
}
