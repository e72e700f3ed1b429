import Foundation
import OrderPackage
import OrderStorage
import WalletCore
import WalletPrimitives

/// ``OrderStorage/SigningIdentityRepository`` for every SQL backend: one row of
/// `signingIdentities` per order type, the key's location as JSON (``OrderPackage/SigningKeyLocation``'s
/// `Codable` form).
package final class SQLSigningIdentityRepository: SigningIdentityRepository {
    private let executor: any SQLExecutor

    package init(executor: any SQLExecutor) {
        self.executor = executor
    }

    private static let columns = columns(table: nil)

    /// The columns ``decode(_:)`` reads, each qualified with `table` when given (a statement
    /// joining others).
    package static func columns(table: String?) -> String {
        [
            "orderTypeIdentifier", "teamIdentifier", "certificate", "intermediates", "certificateSHA256", "keyLocation",
            "notAfter", "addedAt",
        ]
        .map { column in table.map { "\($0).\(column)" } ?? column }.joined(separator: ", ")
    }

    package func put(_ identity: StoredSigningIdentity) async throws(StorageError) -> Bool {
        try await write(identity, into: "signingIdentities")
    }

    package func stage(_ identity: StoredSigningIdentity) async throws(StorageError) -> Bool {
        try await write(identity, into: "stagedSigningIdentities")
    }

    /// `identity` as the one row of its type in `table`; whether it replaced one.
    private func write(_ identity: StoredSigningIdentity, into table: String) async throws(StorageError) -> Bool {
        let location = identity.key.canonicalJSON
        guard
            [
                identity.orderTypeIdentifier, identity.teamIdentifier, identity.certificatePEM, identity.intermediatesPEM,
                identity.certificateSHA256, location,
            ].allSatisfy(StorableText.isExact)
        else { throw StorageError(reason: "a signing identity's text cannot contain U+0000") }
        let arguments: [SQLValue] = [
            .text(identity.orderTypeIdentifier), .text(identity.teamIdentifier), .text(identity.certificatePEM),
            .text(identity.intermediatesPEM), .text(identity.certificateSHA256), .text(location), .instant(identity.notAfter),
            .instant(identity.addedAt),
        ]
        return try await reportingStorageErrors {
            try await executor.write { connection in
                let replaced = try await connection.returnsRow(
                    "DELETE FROM \(table) WHERE orderTypeIdentifier = $1 RETURNING 1", [.text(identity.orderTypeIdentifier)])
                try await connection.execute(
                    "INSERT INTO \(table) (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", arguments)
                return replaced
            }
        }
    }

    package func identity(orderTypeIdentifier: String) async throws(StorageError) -> StoredSigningIdentity? {
        guard StorableText.isExact(orderTypeIdentifier) else { return nil }
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    "SELECT \(Self.columns) FROM signingIdentities WHERE orderTypeIdentifier = $1", [.text(orderTypeIdentifier)],
                    Self.decode
                ).first
            }
        }
    }

    package func identities() async throws(StorageError) -> [StoredSigningIdentity] {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    "SELECT \(Self.columns) FROM signingIdentities ORDER BY orderTypeIdentifier", [], Self.decode)
            }
        }
    }

    package func remove(orderTypeIdentifier: String) async throws(StorageError) -> Bool {
        guard StorableText.isExact(orderTypeIdentifier) else { return false }
        return try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.returnsRow(
                    "DELETE FROM signingIdentities WHERE orderTypeIdentifier = $1 RETURNING 1", [.text(orderTypeIdentifier)])
            }
        }
    }

    package func stagedIdentities() async throws(StorageError) -> [StoredSigningIdentity] {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    "SELECT \(Self.columns) FROM stagedSigningIdentities ORDER BY orderTypeIdentifier", [], Self.decode)
            }
        }
    }

    package func activate(
        orderTypeIdentifier: String, revision: String
    ) async throws(StorageError) -> StoredSigningIdentity? {
        guard StorableText.isExact(orderTypeIdentifier) else { return nil }
        let lockingRead = executor.dialect.lockingRead
        return try await reportingStorageErrors {
            try await executor.write { connection in
                let staged = try await connection.fetch(
                    "SELECT \(Self.columns) FROM stagedSigningIdentities WHERE orderTypeIdentifier = $1 \(lockingRead)",
                    [.text(orderTypeIdentifier)], Self.decode
                ).first
                guard let staged, staged.revision == revision else { return nil }
                try await connection.execute(
                    "DELETE FROM signingIdentities WHERE orderTypeIdentifier = $1", [.text(orderTypeIdentifier)])
                try await connection.execute(
                    """
                    INSERT INTO signingIdentities (\(Self.columns))
                    SELECT \(Self.columns) FROM stagedSigningIdentities WHERE orderTypeIdentifier = $1
                    """, [.text(orderTypeIdentifier)])
                try await connection.execute(
                    "DELETE FROM stagedSigningIdentities WHERE orderTypeIdentifier = $1", [.text(orderTypeIdentifier)])
                return staged
            }
        }
    }

    package func removeStaged(orderTypeIdentifier: String) async throws(StorageError) -> Bool {
        guard StorableText.isExact(orderTypeIdentifier) else { return false }
        return try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.returnsRow(
                    "DELETE FROM stagedSigningIdentities WHERE orderTypeIdentifier = $1 RETURNING 1", [.text(orderTypeIdentifier)]
                )
            }
        }
    }

    package func record(_ reports: [SigningIdentityReport], forgetBefore: Date) async throws(StorageError) {
        guard reports.allSatisfy({ [$0.instance, $0.orderTypeIdentifier, $0.revision].allSatisfy(StorableText.isExact) }) else {
            throw StorageError(reason: "a signing identity report's text cannot contain U+0000")
        }
        try await reportingStorageErrors {
            try await executor.write { connection in
                for report in reports {
                    let key: [SQLValue] = [.text(report.instance), .text(report.orderTypeIdentifier), .text(report.revision)]
                    let reason = report.reason.map { String($0.replacingOccurrences(of: "\u{0}", with: "").prefix(500)) }
                    try await connection.execute(
                        "DELETE FROM signingIdentityReports WHERE instance = $1 AND orderTypeIdentifier = $2 AND revision = $3",
                        key)
                    try await connection.execute(
                        """
                        INSERT INTO signingIdentityReports (instance, orderTypeIdentifier, revision, loaded, reason, reportedAt)
                        VALUES ($1, $2, $3, $4, $5, $6)
                        """,
                        key + [.integer(report.loaded ? 1 : 0), .text(reason), .instant(report.reportedAt)])
                }
                try await connection.execute(
                    "DELETE FROM signingIdentityReports WHERE reportedAt < $1", [.instant(forgetBefore)])
            }
        }
    }

    package func reports() async throws(StorageError) -> [SigningIdentityReport] {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    """
                    SELECT instance, orderTypeIdentifier, revision, loaded, reason, reportedAt FROM signingIdentityReports
                    ORDER BY reportedAt DESC, instance
                    """, []
                ) { row in
                    SigningIdentityReport(
                        instance: try row.text(0), orderTypeIdentifier: try row.text(1), revision: try row.text(2),
                        loaded: try row.integer(3) != 0, reason: try row.optionalText(4),
                        reportedAt: Microseconds.date(try row.integer(5)))
                }
            }
        }
    }

    package func forgetReports(of instance: String) async throws(StorageError) {
        guard StorableText.isExact(instance) else { return }
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute("DELETE FROM signingIdentityReports WHERE instance = $1", [.text(instance)])
            }
        }
    }

    /// A row of ``columns(table:)``.
    package static func decode(_ row: any SQLRow) throws -> StoredSigningIdentity {
        let location = try row.text(5)
        guard let key = try? JSONDecoder().decode(SigningKeyLocation.self, from: Data(location.utf8)) else {
            throw StorageError(reason: "a signing identity's key location is unreadable: \(MessageText.quote(location))")
        }
        return StoredSigningIdentity(
            orderTypeIdentifier: try row.text(0), teamIdentifier: try row.text(1), certificatePEM: try row.text(2),
            intermediatesPEM: try row.text(3), certificateSHA256: try row.text(4), key: key,
            notAfter: Microseconds.date(try row.integer(6)), addedAt: Microseconds.date(try row.integer(7)))
    }
}
