import ArgumentParser
import Foundation
import Logging
import WalletOrders
import WalletPostgres
import WalletSQLite
import WalletStorage

/// `orders migrate`: copies an SQLite store into an empty PostgreSQL database.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy an SQLite store into an empty PostgreSQL database, and verify the counts.",
        discussion: CommandGuide.discussion(
            "migrate",
            """
            Copies every order with all its versions, access (restrictions, authorizations, shared \
            accounts, entitlements, history cursors, API keys), financial data with its change log, \
            device registrations and pending pushes — from one snapshot of the SQLite store, so \
            other processes may go on using it — into the database in one transaction. Change tags \
            and history tokens issued by the SQLite store stay valid. Every table's row count is \
            compared before committing; a difference keeps nothing. The target must hold no data.
            Exit status: 0 copied, 2 a store cannot be opened, the target is not empty, or a count differs.
            """))

    @Option(help: ArgumentHelp("The store to copy: sqlite:PATH.", valueName: "sqlite:path"))
    var from: String

    @Option(help: ArgumentHelp("The PostgreSQL database to copy into (a --database URL).", valueName: "url"))
    var to: String

    @Flag(help: "Print a JSON object.")
    var json = false

    func validate() throws {
        guard from.hasPrefix("sqlite:"), from.count > "sqlite:".count else {
            throw ValidationError("--from must be sqlite:PATH (only SQLite stores are copied from)")
        }
    }

    func run() async throws {
        let path = String(from.dropFirst("sqlite:".count))
        let url = try PostgresDatabaseURL.parse(to, from: "--to")
        let source = try SQLiteBackend(path: path, options: SQLiteBackend.Options(createIfMissing: false, readsOnly: true))
        var logger = Logger(label: "orders.postgres")
        logger.logLevel = .error
        let target = try await PostgresBackend.open(url, logger: logger)
        let copied: [(table: CopiedTable, rows: Int)]
        do {
            copied = try await target.copy(from: try source.snapshot())
        } catch {
            try? await target.close()
            throw error
        }
        try? await target.close()
        if json {
            Output.json(
                MigrateReport(
                    from: "sqlite:\(path)", to: url.redacted, tables: copied.map { .init(table: $0.table.name, rows: $0.rows) }))
            return
        }
        let width = copied.map(\.table.name.count).max() ?? 0
        for (table, rows) in copied {
            Output.line(table.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + String(rows))
        }
        Output.note("copied \(copied.count) tables, counts verified: sqlite:\(path) → \(url.redacted)", toStandardError: true)
    }
}

/// `orders migrate --json`.
struct MigrateReport: Encodable {
    struct Table: Encodable {
        var table: String
        var rows: Int
    }
    var from: String
    var to: String
    var tables: [Table]
}
