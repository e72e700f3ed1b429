import Foundation
import Logging
import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage

extension PostgresBackend {
    /// Copies a whole store into this database, which must hold no data yet, in one transaction:
    /// every table of ``WalletStorage/StoreLayout`` a page at a time, the counters, the identity
    /// columns' next values, and the store's generation (so history tokens issued by the source
    /// stay valid). Before committing, every table's row count is compared with the source's;
    /// any difference rolls everything back.
    ///
    /// - Returns: the rows copied per table, in ``WalletStorage/StoreLayout/tables`` order.
    package func copy(
        from source: any StoreSnapshot, pageSize: Int = 500,
        progress: @escaping @Sendable (CopiedTable, Int) -> Void = { _, _ in }
    ) async throws -> [(table: CopiedTable, rows: Int)] {
        try await executor.transaction("BEGIN") { connection, logger in
            try await Self.requireEmpty(connection, logger: logger)
            // The generation and anything else the migration wrote are replaced by the source's.
            try await connection.run("DELETE FROM storeInfo", logger: logger)
            var copied: [(table: CopiedTable, rows: Int)] = []
            for table in StoreLayout.tables {
                var count = 0
                var after: [SQLValue]? = nil
                while true {
                    let rows = try await source.rows(of: table, after: after, limit: pageSize)
                    guard !rows.isEmpty else { break }
                    try await Self.insert(rows, into: table, on: connection, logger: logger)
                    count += rows.count
                    after = rows.last.map { Array($0.prefix(table.keyLength)) }
                    progress(table, count)
                }
                let expected = try await source.count(of: table)
                let stored = try await connection.value(Int64.self, "SELECT count(*) FROM \(table.name)", logger: logger) ?? -1
                guard count == expected, stored == Int64(expected) else {
                    throw StorageError(
                        reason: "copying \(table.name): the source has \(expected) rows, \(stored) arrived; nothing was kept")
                }
                copied.append((table, count))
            }
            let counters = try await source.counters()
            try await connection.run(
                "UPDATE orderChangeSequence SET value = $1 WHERE id = 1", [.integer(counters.orderChangeSequence)], logger: logger
            )
            try await connection.run(
                "UPDATE financeChangeSequence SET value = $1 WHERE id = 1", [.integer(counters.financeChangeSequence)],
                logger: logger)
            try await connection.run(
                "UPDATE financeHistoryHorizon SET compactedThrough = $1 WHERE id = 1",
                [.integer(counters.financeCompactedThrough)],
                logger: logger)
            // Access arrived without the writes that move its version: a planner that read this
            // store before must read it again.
            try await connection.run("UPDATE accessVersion SET version = version + 1 WHERE id = 1", logger: logger)
            // Identity columns continue after the copied ids.
            for table in ["orders", "orderVersions", "historyCursors", "pushOutbox", "pushFailures"] {
                try await connection.run(
                    "SELECT setval(pg_get_serial_sequence('\(table.lowercased())', 'id'), coalesce(max(id), 0) + 1, false) FROM \(table)",
                    logger: logger)
            }
            return copied
        }
    }

    /// Refuses a database that holds any data: a copy never merges two stores.
    private static func requireEmpty(_ connection: PostgresConnection, logger: Logger) async throws {
        let held = try await connection.rows(
            StoreLayout.tables.filter { $0.name != "storeInfo" }.map {
                "SELECT '\($0.name)' AS name WHERE EXISTS (SELECT 1 FROM \($0.name))"
            }.joined(separator: " UNION ALL "), logger: logger
        ).map { try $0.text(0) }
        guard held.isEmpty else {
            throw StorageError(
                reason:
                    "the target database already holds data (\(held.joined(separator: ", "))); a copy goes into an empty store only"
            )
        }
    }

    /// One multi-row INSERT per page (PostgreSQL takes up to 65,535 arguments per statement).
    private static func insert(
        _ rows: [[SQLValue]], into table: CopiedTable, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let width = table.columns.count
        let perStatement = max(1, min(rows.count, 60_000 / width))
        for start in stride(from: 0, to: rows.count, by: perStatement) {
            let page = rows[start..<min(start + perStatement, rows.count)]
            try await connection.run(
                "INSERT INTO \(table.name) (\(table.columns.joined(separator: ", "))) VALUES "
                    + SQLPlaceholders.rows(page.count, width: width), page.flatMap { $0 }, logger: logger)
        }
    }
}
