import Foundation
import GRDB
import OrderStorage
import WalletPrimitives
import WalletStorage

/// ``OrderStorage/RegistrationRepository`` in the store file.
final class SQLiteRegistrationRepository: RegistrationRepository {
    private let executor: SQLiteExecutor

    init(executor: SQLiteExecutor) {
        self.executor = executor
    }

    func register(
        _ registration: OrderRegistration, at time: Date, limits: RegistrationLimits
    ) async throws(OrderStoreError) -> RegistrationResult {
        guard StorableText.isExact(registration.order), StorableText.isExact(registration.deviceIdentifier),
            StorableText.isExact(registration.pushToken)
        else { throw .unavailable(reason: "identifiers and push tokens cannot hold U+0000") }
        let now = Microseconds.since1970(time)
        return try await executor.writeOrders { db in
            let arguments: StatementArguments = [
                registration.pushToken, now, registration.deviceIdentifier, registration.order.orderTypeIdentifier,
                registration.order.orderIdentifier,
            ]
            try db.execute(
                sql: """
                    UPDATE orderRegistrations SET pushToken = ?, updatedAt = ?
                    WHERE deviceIdentifier = ? AND orderTypeIdentifier = ? AND orderIdentifier = ?
                    """, arguments: arguments)
            if db.changesCount > 0 { return .updated }
            let devices =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM orderRegistrations WHERE orderTypeIdentifier = ? AND orderIdentifier = ?",
                    arguments: [registration.order.orderTypeIdentifier, registration.order.orderIdentifier]) ?? 0
            if devices >= limits.devicesPerOrder {
                throw OrderStoreError.registrationLimit(.devicesPerOrder(limit: limits.devicesPerOrder))
            }
            let orders =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM orderRegistrations WHERE deviceIdentifier = ?",
                    arguments: [registration.deviceIdentifier]) ?? 0
            if orders >= limits.ordersPerDevice {
                throw OrderStoreError.registrationLimit(.ordersPerDevice(limit: limits.ordersPerDevice))
            }
            try db.execute(
                sql: """
                    INSERT INTO orderRegistrations (pushToken, registeredAt, updatedAt, deviceIdentifier, orderTypeIdentifier, orderIdentifier)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    registration.pushToken, now, now, registration.deviceIdentifier, registration.order.orderTypeIdentifier,
                    registration.order.orderIdentifier,
                ])
            return .created
        }
    }

    func unregister(deviceIdentifier: String, order: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> Bool {
        guard StorableText.isExact(order), StorableText.isExact(deviceIdentifier) else { return false }
        return try await executor.writeOrders { db in
            try db.execute(
                sql: """
                    DELETE FROM orderRegistrations WHERE deviceIdentifier = ? AND orderTypeIdentifier = ? AND orderIdentifier = ?
                    """, arguments: [deviceIdentifier, order.orderTypeIdentifier, order.orderIdentifier])
            return db.changesCount > 0
        }
    }

    func registeredOrders(
        deviceIdentifier: String, orderTypeIdentifier: String, changedAfter tag: OrderChangeTag?
    ) async throws(OrderStoreError) -> RegisteredOrderChanges? {
        guard StorableText.isExact(deviceIdentifier), StorableText.isExact(orderTypeIdentifier) else { return nil }
        let rows = try executor.readOrders(singleStatement: true) { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT o.orderIdentifier, o.changeSequence FROM orderRegistrations r
                        JOIN orders o ON o.orderTypeIdentifier = r.orderTypeIdentifier AND o.orderIdentifier = r.orderIdentifier
                        WHERE r.deviceIdentifier = ? AND r.orderTypeIdentifier = ? AND o.changeSequence > ?
                        ORDER BY o.changeSequence
                        """), arguments: [deviceIdentifier, orderTypeIdentifier, tag?.sequence ?? -1])
        }
        guard let last = rows.last else { return nil }
        return RegisteredOrderChanges(
            orderIdentifiers: rows.map { $0["orderIdentifier"] }, lastModified: OrderChangeTag(sequence: last["changeSequence"]))
    }

    func removeRegistrations(pushToken: String) async throws(OrderStoreError) -> Int {
        guard StorableText.isExact(pushToken) else { return 0 }
        return try await executor.writeOrders { db in
            try db.execute(sql: "DELETE FROM orderRegistrations WHERE pushToken = ?", arguments: [pushToken])
            return db.changesCount
        }
    }
}
