import Foundation
import GRDB
import WalletCore

/// The shared core's tables, as GRDB migrations with the `core.` prefix.
enum CoreTables {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("core.v1") { db in
            // Times are microseconds since 1970.
            try db.execute(
                sql: """
                    CREATE TABLE storeInfo (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE restrictions (dataType TEXT PRIMARY KEY, since INTEGER NOT NULL);
                    CREATE TABLE clients (
                        client TEXT PRIMARY KEY,
                        status TEXT NOT NULL CHECK (status IN ('authorized', 'denied', 'notDetermined')),
                        decidedAt INTEGER
                    );
                    CREATE TABLE clientAccounts (
                        client TEXT NOT NULL,
                        accountID TEXT NOT NULL,
                        earliestDate INTEGER,
                        PRIMARY KEY (client, accountID)
                    );
                    CREATE TABLE clientOrderTypes (
                        client TEXT NOT NULL,
                        orderTypeIdentifier TEXT NOT NULL,
                        PRIMARY KEY (client, orderTypeIdentifier)
                    );
                    CREATE TABLE historyCursors (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        client TEXT NOT NULL,
                        stream TEXT NOT NULL,
                        createdAt INTEGER NOT NULL
                    );
                    CREATE INDEX historyCursors_on_client ON historyCursors (client);
                    """)
            try db.execute(sql: "INSERT INTO storeInfo (key, value) VALUES ('generation', ?)", arguments: [UUID().uuidString])
        }

        // Merchant API keys (issue 9): the secret's SHA-256 only; the key's order types are its
        // client's `clientOrderTypes` rows (client `apikey.<identifier>`).
        migrator.registerMigration("core.v2") { db in
            try db.execute(
                sql: """
                    CREATE TABLE apiKeys (
                        identifier TEXT PRIMARY KEY,
                        name TEXT NOT NULL,
                        secretDigest TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        revokedAt INTEGER
                    ) WITHOUT ROWID;
                    """)
        }
    }
}
