/// The migration that gives the push outbox one waiting push per device and order type (SQLite's
/// `orders.v7`, PostgreSQL's migration 12), in the SQL both engines read: a count of the versions
/// coalesced into each row, the rows already queued twice for a device and type folded into the
/// oldest (which counts the others), then the unique index the enqueueing `ON CONFLICT` names.
package enum PushOutboxCoalescing {
    package static let migration = [
        "ALTER TABLE pushOutbox ADD COLUMN coalesced INTEGER NOT NULL DEFAULT 0",
        """
        UPDATE pushOutbox SET coalesced = (
            SELECT count(*) - 1 FROM pushOutbox other
            WHERE other.deviceIdentifier = pushOutbox.deviceIdentifier
            AND other.orderTypeIdentifier = pushOutbox.orderTypeIdentifier)
        WHERE id IN (SELECT min(id) FROM pushOutbox GROUP BY deviceIdentifier, orderTypeIdentifier HAVING count(*) > 1)
        """,
        "DELETE FROM pushOutbox WHERE id NOT IN (SELECT min(id) FROM pushOutbox GROUP BY deviceIdentifier, orderTypeIdentifier)",
        "CREATE UNIQUE INDEX pushOutbox_on_device ON pushOutbox (deviceIdentifier, orderTypeIdentifier)",
    ]
}
