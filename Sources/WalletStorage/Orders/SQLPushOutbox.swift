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

    /// The columns ``push(_:)`` reads, first in a row.
    private static let pushColumns =
        "id, pushToken, orderTypeIdentifier, orderIdentifier, deviceIdentifier, enqueuedAt, attempts, coalesced"

    private static func push(_ row: any SQLRow) throws -> PendingPush {
        PendingPush(
            id: try row.integer(0), pushToken: try row.text(1), orderTypeIdentifier: try row.text(2),
            orderIdentifier: try row.text(3), deviceIdentifier: try row.text(4),
            enqueuedAt: Microseconds.date(try row.integer(5)), attempts: Int(try row.integer(6)),
            coalesced: Int(try row.integer(7)))
    }

    package func claimPushes(dueAt time: Date, leaseEnd: Date, limit: Int) async throws -> [PendingPush] {
        let select = """
            SELECT \(Self.pushColumns)
            FROM pushOutbox WHERE nextAttemptAt <= $1 ORDER BY nextAttemptAt, id LIMIT $2 \(executor.dialect.lockingReadSkippingLocked)
            """
        return try await reportingFailures {
            try await executor.write { connection in
                let due = try await connection.fetch(select, [.instant(time), .integer(Int64(max(0, limit)))], Self.push)
                guard !due.isEmpty else { return due }
                let ids = SQLPlaceholders.list(2...due.count + 1)
                try await connection.execute(
                    "UPDATE pushOutbox SET nextAttemptAt = $1 WHERE id IN (\(ids))",
                    [.instant(leaseEnd)] + due.map { .integer($0.id) }, reusable: false)
                return due
            }
        }
    }

    package func completePush(_ push: PendingPush, at time: Date) async throws {
        try await reportingFailures {
            try await executor.write { connection in
                let claimed: [SQLValue] = [.integer(push.id), .integer(Int64(push.coalesced))]
                let deleted = try await connection.returnsRow(
                    "DELETE FROM pushOutbox WHERE id = $1 AND coalesced = $2 RETURNING 1", claimed)
                guard !deleted else { return }
                // A version arrived while the push was being sent: the device is owed another.
                try await connection.execute(
                    """
                    UPDATE pushOutbox SET coalesced = coalesced - $2 - 1, attempts = 0, enqueuedAt = $3, nextAttemptAt = $3,
                    lastError = NULL WHERE id = $1
                    """, claimed + [.instant(time)])
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

    package func failPush(_ push: PendingPush, reason: String, at time: Date) async throws {
        let failure: [SQLValue] = [
            .text(push.orderTypeIdentifier), .text(push.orderIdentifier), .text(push.deviceIdentifier),
            .text(String(push.pushToken.suffix(PushOutboxRecords.tokenSuffixLength))), .instant(push.enqueuedAt),
            .instant(time), .integer(Int64(push.attempts + 1)),
            .text(String(reason.replacingOccurrences(of: "\u{0}", with: "").prefix(PushOutboxRecords.reasonLength))),
        ]
        try await reportingFailures {
            try await executor.write { connection in
                // Gone already (another drainer's lease ended and it finished first): nothing to record.
                guard try await connection.returnsRow("DELETE FROM pushOutbox WHERE id = $1 RETURNING 1", [.integer(push.id)])
                else { return }
                try await connection.execute(
                    """
                    INSERT INTO pushFailures (orderTypeIdentifier, orderIdentifier, deviceIdentifier, pushTokenSuffix, enqueuedAt,
                    failedAt, attempts, reason) VALUES (\(SQLPlaceholders.list(1...8)))
                    """, failure)
                try await connection.execute(
                    "DELETE FROM pushFailures WHERE id <= (SELECT max(id) FROM pushFailures) - $1",
                    [.integer(Int64(PushOutboxRecords.keptFailures))])
            }
        }
    }

    package func waitingPushes(limit: Int) async throws -> [WaitingPush] {
        try await reportingFailures {
            try await executor.read { connection in
                try await connection.fetch(
                    """
                    SELECT \(Self.pushColumns), nextAttemptAt, lastError FROM pushOutbox ORDER BY nextAttemptAt, id LIMIT $1
                    """, [.integer(Int64(max(0, limit)))]
                ) { row in
                    WaitingPush(
                        push: try Self.push(row), nextAttemptAt: Microseconds.date(try row.integer(8)),
                        lastError: try row.optionalText(9))
                }
            }
        }
    }

    package func failedPushes(limit: Int) async throws -> [FailedPush] {
        try await reportingFailures {
            try await executor.read { connection in
                try await connection.fetch(
                    """
                    SELECT orderTypeIdentifier, orderIdentifier, deviceIdentifier, pushTokenSuffix, enqueuedAt, failedAt, attempts,
                    reason FROM pushFailures ORDER BY id DESC LIMIT $1
                    """, [.integer(Int64(max(0, limit)))]
                ) { row in
                    FailedPush(
                        orderTypeIdentifier: try row.text(0), orderIdentifier: try row.text(1), deviceIdentifier: try row.text(2),
                        pushTokenSuffix: try row.text(3), enqueuedAt: Microseconds.date(try row.integer(4)),
                        failedAt: Microseconds.date(try row.integer(5)), attempts: Int(try row.integer(6)),
                        reason: try row.text(7))
                }
            }
        }
    }
}
