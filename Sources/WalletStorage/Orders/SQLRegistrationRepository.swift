import Foundation
import OrderStorage
import WalletCore
import WalletPrimitives

/// ``OrderStorage/RegistrationRepository`` for every SQL backend.
package final class SQLRegistrationRepository: RegistrationRepository {
    private let executor: any SQLExecutor

    package init(executor: any SQLExecutor) {
        self.executor = executor
    }

    package func register(
        _ registration: OrderRegistration, at time: Date, limits: RegistrationLimits
    ) async throws -> RegistrationResult {
        guard StorableText.isExact(registration.order), StorableText.isExact(registration.deviceIdentifier),
            StorableText.isExact(registration.pushToken)
        else { throw StorageError(reason: "identifiers and push tokens cannot hold U+0000") }
        let arguments: [SQLValue] =
            [.text(registration.deviceIdentifier)] + OrderColumns.key(registration.order) + [
                .text(registration.pushToken), .instant(time),
            ]
        return try await reportingFailures {
            try await executor.write { connection in
                // Update or insert, in statements every backend has: a registration deleted
                // between the two is inserted again. The bounds are counted before an insert; on
                // PostgreSQL two registrations racing for the last place may both get it.
                while true {
                    if try await connection.returnsRow(
                        """
                        UPDATE orderRegistrations SET pushToken = $4, updatedAt = $5
                        WHERE deviceIdentifier = $1 AND orderTypeIdentifier = $2 AND orderIdentifier = $3 RETURNING 1
                        """, arguments)
                    {
                        return RegistrationResult.updated
                    }
                    let devices =
                        try await connection.integer(
                            "SELECT count(*) FROM orderRegistrations WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2",
                            OrderColumns.key(registration.order)) ?? 0
                    if devices >= Int64(limits.devicesPerOrder) {
                        throw OrderStoreError.registrationLimit(.devicesPerOrder(limit: limits.devicesPerOrder))
                    }
                    let orders =
                        try await connection.integer(
                            "SELECT count(*) FROM orderRegistrations WHERE deviceIdentifier = $1",
                            [.text(registration.deviceIdentifier)]) ?? 0
                    if orders >= Int64(limits.ordersPerDevice) {
                        throw OrderStoreError.registrationLimit(.ordersPerDevice(limit: limits.ordersPerDevice))
                    }
                    if try await connection.returnsRow(
                        """
                        INSERT INTO orderRegistrations
                            (deviceIdentifier, orderTypeIdentifier, orderIdentifier, pushToken, registeredAt, updatedAt)
                        VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT DO NOTHING RETURNING 1
                        """, arguments)
                    {
                        return .created
                    }
                }
            }
        }
    }

    package func unregister(
        deviceIdentifier: String, order: FullyQualifiedOrderIdentifier
    ) async throws -> Bool {
        guard StorableText.isExact(order), StorableText.isExact(deviceIdentifier) else { return false }
        return try await reportingFailures {
            try await executor.write { connection in
                try await connection.returnsRow(
                    """
                    DELETE FROM orderRegistrations
                    WHERE deviceIdentifier = $1 AND orderTypeIdentifier = $2 AND orderIdentifier = $3 RETURNING 1
                    """, [.text(deviceIdentifier)] + OrderColumns.key(order))
            }
        }
    }

    package func registeredOrders(
        deviceIdentifier: String, orderTypeIdentifier: String, changedAfter tag: OrderChangeTag?
    ) async throws -> RegisteredOrderChanges? {
        guard StorableText.isExact(deviceIdentifier), StorableText.isExact(orderTypeIdentifier) else { return nil }
        let rows = try await reportingFailures {
            try await executor.read { connection in
                try await connection.fetch(
                    """
                    SELECT o.orderIdentifier, o.changeSequence FROM orderRegistrations r
                    JOIN orders o ON o.orderTypeIdentifier = r.orderTypeIdentifier AND o.orderIdentifier = r.orderIdentifier
                    WHERE r.deviceIdentifier = $1 AND r.orderTypeIdentifier = $2 AND o.changeSequence > $3
                    ORDER BY o.changeSequence
                    """, [.text(deviceIdentifier), .text(orderTypeIdentifier), .integer(tag?.sequence ?? -1)]
                ) { (try $0.text(0), try $0.integer(1)) }
            }
        }
        guard let last = rows.last else { return nil }
        return RegisteredOrderChanges(orderIdentifiers: rows.map(\.0), lastModified: OrderChangeTag(sequence: last.1))
    }

    package func removeRegistrations(pushToken: String) async throws -> Int {
        guard StorableText.isExact(pushToken) else { return 0 }
        return try await reportingFailures {
            try await executor.write { connection in
                try await connection.count("DELETE FROM orderRegistrations WHERE pushToken = $1 RETURNING 1", [.text(pushToken)])
            }
        }
    }

    package func registeredDevices(for order: FullyQualifiedOrderIdentifier, limit: Int) async throws -> RegisteredDevices {
        guard StorableText.isExact(order) else { return RegisteredDevices(count: 0, lastRegisteredAt: nil, devices: []) }
        let key = OrderColumns.key(order)
        return try await reportingFailures {
            try await executor.read { connection in
                let (count, last) =
                    try await connection.fetchOne(
                        """
                        SELECT count(*), max(updatedAt) FROM orderRegistrations
                        WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2
                        """, key
                    ) { row in (Int(try row.integer(0)), try row.optionalInteger(1).map(Microseconds.date)) } ?? (0, nil)
                let devices = try await connection.fetch(
                    """
                    SELECT deviceIdentifier, pushToken, registeredAt, updatedAt FROM orderRegistrations
                    WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2 ORDER BY updatedAt DESC, deviceIdentifier LIMIT $3
                    """, key + [.integer(Int64(max(0, limit)))]
                ) { row in
                    RegisteredDevices.Device(
                        deviceIdentifier: try row.text(0),
                        pushTokenSuffix: String(try row.text(1).suffix(PushOutboxRecords.tokenSuffixLength)),
                        registeredAt: Microseconds.date(try row.integer(2)), updatedAt: Microseconds.date(try row.integer(3)))
                }
                return RegisteredDevices(count: count, lastRegisteredAt: last, devices: devices)
            }
        }
    }
}
