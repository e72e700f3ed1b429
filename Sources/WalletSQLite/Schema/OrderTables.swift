import Foundation
import GRDB
import WalletCore
import WalletPrimitives

/// The orders tables, as GRDB migrations. Other modules that share the database register their
/// own migrations in the same migrator.
enum OrderTables {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("orders.v1") { db in
            // The current version of each order. Timestamps: `updatedAt` exactly as written in
            // order.json plus a sortable integer of microseconds; `addedAt`/`replacedAt` in
            // microseconds since 1970.
            try db.execute(
                sql: """
                    CREATE TABLE orders (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        orderTypeIdentifier TEXT NOT NULL,
                        orderIdentifier TEXT NOT NULL,
                        updatedAt TEXT NOT NULL,
                        updatedAtMicroseconds INTEGER NOT NULL,
                        createdAt TEXT NOT NULL,
                        status TEXT NOT NULL,
                        merchantIdentifier TEXT NOT NULL,
                        merchantDisplayName TEXT NOT NULL,
                        teamIdentifier TEXT NOT NULL,
                        archiveSHA256 TEXT NOT NULL,
                        archive BLOB NOT NULL,
                        orderJSON BLOB NOT NULL,
                        addedAt INTEGER NOT NULL,
                        UNIQUE (orderTypeIdentifier, orderIdentifier)
                    );
                    CREATE INDEX orders_on_updatedAt ON orders (updatedAtMicroseconds);
                    CREATE INDEX orders_on_type_updatedAt ON orders (orderTypeIdentifier, updatedAtMicroseconds);
                    CREATE INDEX orders_on_status_updatedAt ON orders (status, updatedAtMicroseconds);

                    CREATE TABLE orderVersions (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        orderTypeIdentifier TEXT NOT NULL,
                        orderIdentifier TEXT NOT NULL,
                        updatedAt TEXT NOT NULL,
                        updatedAtMicroseconds INTEGER NOT NULL,
                        createdAt TEXT NOT NULL,
                        status TEXT NOT NULL,
                        merchantIdentifier TEXT NOT NULL,
                        merchantDisplayName TEXT NOT NULL,
                        teamIdentifier TEXT NOT NULL,
                        archiveSHA256 TEXT NOT NULL,
                        archive BLOB NOT NULL,
                        orderJSON BLOB NOT NULL,
                        addedAt INTEGER NOT NULL,
                        replacedAt INTEGER NOT NULL
                    );
                    CREATE INDEX orderVersions_on_identifier
                        ON orderVersions (orderTypeIdentifier, orderIdentifier, updatedAtMicroseconds);
                    """)
        }
    }
}
