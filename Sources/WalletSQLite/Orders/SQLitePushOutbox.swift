import Foundation
import GRDB
import OrderStorage
import WalletPrimitives

/// ``OrderStorage/PushOutbox`` in the store file. A claim moves the rows' `nextAttemptAt` to the
/// lease's end in one write transaction, so two drainers never claim the same row at once.
final class SQLitePushOutbox: PushOutbox {
    private let executor: SQLiteExecutor

    init(executor: SQLiteExecutor) {
        self.executor = executor
    }

    func claimPushes(dueAt time: Date, leaseEnd: Date, limit: Int) async throws(OrderStoreError) -> [PendingPush] {
        let now = Microseconds.since1970(time)
        let lease = Microseconds.since1970(leaseEnd)
        return try await executor.writeOrders { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, pushToken, orderTypeIdentifier, orderIdentifier, deviceIdentifier, enqueuedAt, attempts
                        FROM pushOutbox WHERE nextAttemptAt <= ? ORDER BY nextAttemptAt, id LIMIT ?
                        """), arguments: [now, max(0, limit)])
            let claim = try db.cachedStatement(sql: "UPDATE pushOutbox SET nextAttemptAt = ? WHERE id = ?")
            return try rows.map { row in
                let id: Int64 = row["id"]
                try claim.execute(arguments: [lease, id])
                return PendingPush(
                    id: id, pushToken: row["pushToken"], orderTypeIdentifier: row["orderTypeIdentifier"],
                    orderIdentifier: row["orderIdentifier"], deviceIdentifier: row["deviceIdentifier"],
                    enqueuedAt: Microseconds.date(row["enqueuedAt"]), attempts: row["attempts"])
            }
        }
    }

    func completePush(_ id: Int64) async throws(OrderStoreError) {
        try await executor.writeOrders { db in try db.execute(sql: "DELETE FROM pushOutbox WHERE id = ?", arguments: [id]) }
    }

    func retryPush(_ id: Int64, at time: Date, reason: String) async throws(OrderStoreError) {
        let next = Microseconds.since1970(time)
        try await executor.writeOrders { db in
            try db.execute(
                sql: "UPDATE pushOutbox SET attempts = attempts + 1, nextAttemptAt = ?, lastError = ? WHERE id = ?",
                arguments: [next, String(reason.prefix(500)), id])
        }
    }

    func pendingPushCount() async throws(OrderStoreError) -> Int {
        try executor.readOrders { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM pushOutbox") ?? 0 }
    }
}
