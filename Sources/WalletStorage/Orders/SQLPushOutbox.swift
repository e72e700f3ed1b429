import Foundation
import OrderStorage
import WalletPrimitives

/// ``OrderStorage/PushOutbox`` for every SQL backend. A claim reads the due rows with the
/// dialect's ``SQLDialect/lockingReadSkippingLocked`` and moves them to the lease's end in the
/// same unit of work, so two drainers never claim the same row, and on PostgreSQL several
/// instances draining at once each take other rows without waiting for one another.
package final class SQLPushOutbox: PushOutbox {
    private let executor: any SQLExecutor

    package init(executor: any SQLExecutor) {
        self.executor = executor
    }

    package func claimPushes(dueAt time: Date, leaseEnd: Date, limit: Int) async throws -> [PendingPush] {
        let select = """
            SELECT id, pushToken, orderTypeIdentifier, orderIdentifier, deviceIdentifier, enqueuedAt, attempts
            FROM pushOutbox WHERE nextAttemptAt <= $1 ORDER BY nextAttemptAt, id LIMIT $2 \(executor.dialect.lockingReadSkippingLocked)
            """
        return try await reportingFailures {
            try await executor.write { connection in
                let due = try await connection.fetch(select, [.instant(time), .integer(Int64(max(0, limit)))]) { row in
                    PendingPush(
                        id: try row.integer(0), pushToken: try row.text(1), orderTypeIdentifier: try row.text(2),
                        orderIdentifier: try row.text(3), deviceIdentifier: try row.text(4),
                        enqueuedAt: Microseconds.date(try row.integer(5)), attempts: Int(try row.integer(6)))
                }
                guard !due.isEmpty else { return due }
                let ids = SQLPlaceholders.list(2...due.count + 1)
                try await connection.execute(
                    "UPDATE pushOutbox SET nextAttemptAt = $1 WHERE id IN (\(ids))",
                    [.instant(leaseEnd)] + due.map { .integer($0.id) }, reusable: false)
                return due
            }
        }
    }

    package func completePush(_ id: Int64) async throws {
        try await reportingFailures {
            try await executor.write { connection in
                try await connection.execute("DELETE FROM pushOutbox WHERE id = $1", [.integer(id)])
            }
        }
    }

    package func retryPush(_ id: Int64, at time: Date, reason: String) async throws {
        let arguments: [SQLValue] = [
            .instant(time), .text(String(reason.replacingOccurrences(of: "\u{0}", with: "").prefix(500))), .integer(id),
        ]
        try await reportingFailures {
            try await executor.write { connection in
                try await connection.execute(
                    "UPDATE pushOutbox SET attempts = attempts + 1, nextAttemptAt = $1, lastError = $2 WHERE id = $3", arguments)
            }
        }
    }

    package func pendingPushCount() async throws -> Int {
        try await reportingFailures {
            try await executor.read { connection in Int(try await connection.integer("SELECT count(*) FROM pushOutbox") ?? 0) }
        }
    }
}
