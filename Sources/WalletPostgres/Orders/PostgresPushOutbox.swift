import Foundation
import OrderStorage
import PostgresNIO
import WalletPrimitives
import WalletStorage

/// ``OrderStorage/PushOutbox`` in PostgreSQL. A claim selects due rows `FOR UPDATE SKIP LOCKED`
/// and moves them to the lease's end in the same statement, so several instances draining at once
/// each get other rows and none waits for another.
final class PostgresPushOutbox: PushOutbox {
    private let executor: PostgresExecutor

    init(executor: PostgresExecutor) {
        self.executor = executor
    }

    func claimPushes(dueAt time: Date, leaseEnd: Date, limit: Int) async throws(OrderStoreError) -> [PendingPush] {
        let arguments: [SQLValue] = [
            .integer(Microseconds.since1970(time)), .integer(Int64(max(0, limit))), .integer(Microseconds.since1970(leaseEnd)),
        ]
        let claimed = try await executor.writeOrders { connection, logger in
            try await connection.rows(
                """
                WITH due AS (
                    SELECT id, nextAttemptAt AS dueAt FROM pushOutbox WHERE nextAttemptAt <= $1
                    ORDER BY nextAttemptAt, id LIMIT $2 FOR UPDATE SKIP LOCKED)
                UPDATE pushOutbox p SET nextAttemptAt = $3 FROM due WHERE p.id = due.id
                RETURNING p.id, p.pushToken, p.orderTypeIdentifier, p.orderIdentifier, p.deviceIdentifier, p.enqueuedAt,
                    p.attempts::bigint, due.dueAt
                """, arguments, logger: logger
            ).map { row in
                (
                    due: try row.integer(7),
                    push: PendingPush(
                        id: try row.integer(0), pushToken: try row.text(1), orderTypeIdentifier: try row.text(2),
                        orderIdentifier: try row.text(3), deviceIdentifier: try row.text(4),
                        enqueuedAt: Microseconds.date(try row.integer(5)), attempts: Int(try row.integer(6)))
                )
            }
        }
        // RETURNING keeps no order: oldest due first, as the selection took them.
        return claimed.sorted { ($0.due, $0.push.id) < ($1.due, $1.push.id) }.map(\.push)
    }

    func completePush(_ id: Int64) async throws(OrderStoreError) {
        try await executor.writeOrders { connection, logger in
            try await connection.run("DELETE FROM pushOutbox WHERE id = $1", [.integer(id)], logger: logger)
        }
    }

    func retryPush(_ id: Int64, at time: Date, reason: String) async throws(OrderStoreError) {
        let arguments: [SQLValue] = [
            .integer(Microseconds.since1970(time)), .text(String(reason.replacingOccurrences(of: "\u{0}", with: "").prefix(500))),
            .integer(id),
        ]
        try await executor.writeOrders { connection, logger in
            try await connection.run(
                "UPDATE pushOutbox SET attempts = attempts + 1, nextAttemptAt = $1, lastError = $2 WHERE id = $3", arguments,
                logger: logger)
        }
    }

    func pendingPushCount() async throws(OrderStoreError) -> Int {
        try await executor.readOrders { connection, logger in
            Int(try await connection.value(Int64.self, "SELECT count(*) FROM pushOutbox", logger: logger) ?? 0)
        }
    }
}
