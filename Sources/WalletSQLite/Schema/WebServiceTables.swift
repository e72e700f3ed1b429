import GRDB
import WalletStorage

/// The tables of the Orders web service (`orders.v2`): each version's `authenticationToken`, the
/// store-wide change sequence behind Apple's `lastModified` tag, device registrations and the
/// push outbox.
enum WebServiceTables {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("orders.v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE orders ADD COLUMN authenticationToken TEXT;
                    ALTER TABLE orderVersions ADD COLUMN authenticationToken TEXT;

                    -- One counter for the whole store: every insert or replacement of an order takes
                    -- the next value in its own write transaction. SQLite has one writer at a time,
                    -- so values commit in order and a reader never passes a gap a later commit fills.
                    ALTER TABLE orders ADD COLUMN changeSequence INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE orderChangeSequence (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
                    INSERT INTO orderChangeSequence (id, value) VALUES (1, (SELECT coalesce(max(id), 0) FROM orders));
                    UPDATE orders SET changeSequence = id;
                    CREATE INDEX orders_on_type_changeSequence ON orders (orderTypeIdentifier, changeSequence);

                    CREATE TABLE orderRegistrations (
                        deviceIdentifier TEXT NOT NULL,
                        orderTypeIdentifier TEXT NOT NULL,
                        orderIdentifier TEXT NOT NULL,
                        pushToken TEXT NOT NULL,
                        registeredAt INTEGER NOT NULL,
                        updatedAt INTEGER NOT NULL,
                        PRIMARY KEY (deviceIdentifier, orderTypeIdentifier, orderIdentifier)
                    ) WITHOUT ROWID;
                    CREATE INDEX orderRegistrations_on_order ON orderRegistrations (orderTypeIdentifier, orderIdentifier);
                    CREATE INDEX orderRegistrations_on_pushToken ON orderRegistrations (pushToken);

                    CREATE TABLE pushOutbox (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        pushToken TEXT NOT NULL,
                        orderTypeIdentifier TEXT NOT NULL,
                        orderIdentifier TEXT NOT NULL,
                        deviceIdentifier TEXT NOT NULL,
                        enqueuedAt INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        nextAttemptAt INTEGER NOT NULL,
                        lastError TEXT
                    );
                    CREATE INDEX pushOutbox_on_nextAttemptAt ON pushOutbox (nextAttemptAt, id);
                    """)
            // Versions stored before this migration get the token of their own order.json, in one
            // statement per table (a store of a million versions is never loaded into memory).
            // order.json was validated when saved: one object, no duplicate keys; a leading byte
            // order mark, which the validator accepts, is dropped for SQLite's JSON functions.
            let text = "CAST(CASE WHEN substr(orderJSON, 1, 3) = X'EFBBBF' THEN substr(orderJSON, 4) ELSE orderJSON END AS TEXT)"
            for table in ["orders", "orderVersions"] {
                try db.execute(
                    sql: """
                        UPDATE \(table) SET authenticationToken = json_extract(\(text), '$.authenticationToken')
                        WHERE json_valid(\(text)) AND json_type(\(text), '$.authenticationToken') = 'text'
                        """)
            }
        }

        // Every device request reads a version's digest, updatedAt and token; from this index
        // alone, never the table row, whose archive spills over many pages. So the read costs
        // the same whether the order exists (TimingEqualityTests) and skips the row.
        migrator.registerMigration("orders.v3") { db in
            try db.execute(
                sql: "CREATE INDEX orders_served ON orders "
                    + "(orderTypeIdentifier, orderIdentifier, archiveSHA256, updatedAt, authenticationToken)")
        }

        // What the operator console shows: which merchant API key uploaded each version, and the
        // pushes that failed for good (APNs' reason kept; the newest 1,000, see SQLPushOutbox).
        migrator.registerMigration("orders.v4") { db in
            try db.execute(
                sql: """
                    ALTER TABLE orders ADD COLUMN uploadedBy TEXT;
                    ALTER TABLE orderVersions ADD COLUMN uploadedBy TEXT;
                    CREATE TABLE pushFailures (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        orderTypeIdentifier TEXT NOT NULL,
                        orderIdentifier TEXT NOT NULL,
                        deviceIdentifier TEXT NOT NULL,
                        pushTokenSuffix TEXT NOT NULL,
                        enqueuedAt INTEGER NOT NULL,
                        failedAt INTEGER NOT NULL,
                        attempts INTEGER NOT NULL,
                        reason TEXT NOT NULL
                    );
                    """)
        }

        // The signing identities authored orders are signed with (issue 43): the certificate,
        // its intermediates and where the key is — a path or a PKCS#11 URI, never the key.
        migrator.registerMigration("orders.v5") { db in
            try db.execute(
                sql: """
                    CREATE TABLE signingIdentities (
                        orderTypeIdentifier TEXT PRIMARY KEY NOT NULL,
                        teamIdentifier TEXT NOT NULL,
                        certificate TEXT NOT NULL,
                        intermediates TEXT NOT NULL,
                        certificateSHA256 TEXT NOT NULL,
                        keyLocation TEXT NOT NULL,
                        notAfter INTEGER NOT NULL,
                        addedAt INTEGER NOT NULL
                    )
                    """)
        }

        // The answers merchant API requests with an Idempotency-Key got, each written in the
        // transaction of the version it answers, kept a day (RequestReceipt.lifetime).
        migrator.registerMigration("orders.v6") { db in
            try db.execute(
                sql: """
                    CREATE TABLE requestReceipts (
                        caller TEXT NOT NULL,
                        idempotencyKey TEXT NOT NULL,
                        requestDigest TEXT NOT NULL,
                        status INTEGER NOT NULL,
                        answer BLOB NOT NULL,
                        createdAt INTEGER NOT NULL,
                        PRIMARY KEY (caller, idempotencyKey)
                    )
                    """)
        }

        // One waiting push per device and order type (issue 53): later versions coalesce into
        // it. Rows already queued twice fold into the oldest, which counts the others.
        migrator.registerMigration("orders.v7") { db in
            for statement in PushOutboxCoalescing.migration {
                try db.execute(sql: statement)
            }
        }

        // Rotation without an outage (issue 53): an identity staged beside the active one, and
        // what each service instance reported of loading each.
        migrator.registerMigration("orders.v8") { db in
            try db.execute(
                sql: """
                    CREATE TABLE stagedSigningIdentities (
                        orderTypeIdentifier TEXT PRIMARY KEY NOT NULL,
                        teamIdentifier TEXT NOT NULL,
                        certificate TEXT NOT NULL,
                        intermediates TEXT NOT NULL,
                        certificateSHA256 TEXT NOT NULL,
                        keyLocation TEXT NOT NULL,
                        notAfter INTEGER NOT NULL,
                        addedAt INTEGER NOT NULL
                    );
                    CREATE TABLE signingIdentityReports (
                        instance TEXT NOT NULL,
                        orderTypeIdentifier TEXT NOT NULL,
                        revision TEXT NOT NULL,
                        loaded INTEGER NOT NULL,
                        reason TEXT,
                        reportedAt INTEGER NOT NULL,
                        PRIMARY KEY (instance, orderTypeIdentifier, revision)
                    );
                    """)
        }

        // Orders that keep themselves current (issue 55): tracking endpoints, the tracking-number
        // index, the events received and which versions they made (WalletStorage's TrackingTables).
        migrator.registerMigration("orders.v9") { db in
            for statement in TrackingTables.migration(text: "TEXT", bytes: "BLOB") {
                try db.execute(sql: statement)
            }
        }
    }
}
