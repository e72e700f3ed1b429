import ArgumentParser
import Foundation
import WalletOrders
import WalletPostgres
import WalletPrimitives
import WalletSQLite
import WalletWire

/// `orders doctor`: checks a store file for damage without changing it.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the store file for damage (SQLite quick_check, or integrity_check with --full).",
        discussion: CommandGuide.discussion(
            "doctor",
            """
            Opening a store checks it only when it is small (16 MiB); run this from cron for larger \
            stores (about 2 ms per MB; --full about 5 ms per MB and also compares every index with its table). \
            Nothing is changed, and a missing store is not created. With --database (PostgreSQL), \
            checks that the server answers and the database holds this tool's tables, fully migrated; \
            the server checks its own pages (and reclaims space itself, with autovacuum).
            --compact then rewrites a sound SQLite store without its free pages and switches it to \
            incremental auto-vacuum, which stores made by this version have from the start: run it \
            once on an older store after large deletions (it needs free disk as large as the store, \
            and holds the write lock while it runs).
            Exit status: 0 sound, 1 damaged (store.corrupt, with what to do), 2 no store or not a store.
            """))

    @Flag(help: "Run PRAGMA integrity_check (slower; also checks index contents) instead of quick_check.")
    var full = false

    @Flag(help: "After the check, give the space of deleted data back to the file system (SQLite).")
    var compact = false

    @Flag(help: "Print a JSON object.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        if let url = try store.databaseURL {
            let backend = try await PostgresBackend.open(url, options: .init(createIfMissing: false))
            try? await backend.close()
            if json {
                Output.json(WireStoreCheck(store: url.redacted, problems: ["ok"]))
            } else {
                Output.line("ok \(url.redacted)")
            }
            if compact {
                Output.note(
                    "PostgreSQL gives deleted rows' space back itself (autovacuum): nothing to compact", toStandardError: true)
            }
            return
        }
        let path = try store.path
        let problems = try SQLiteBackend.check(at: path, full: full)
        let sound = problems == ["ok"]
        if json {
            Output.json(WireStoreCheck(store: path, problems: problems))
        } else if sound {
            Output.line("ok \(path)")
        } else {
            Output.line("store.corrupt \(path)")
            for line in problems.flatMap({ $0.split(separator: "\n") }) { Output.line("    \(line)") }
            Output.error(SQLiteBackend.corruptionAdvice(path: path))
        }
        if !sound { throw ExitCode(ExitStatus.invalid) }
        if compact {
            let (before, after) = try await SQLiteBackend.compact(at: path)
            Output.note("compacted \(path): \(before) → \(after) bytes", toStandardError: json)
        }
    }
}
