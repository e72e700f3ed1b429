/// The pushes a replaced version owes, written once for every backend: each device registered
/// for the order gets one row per order type; a row not yet sent for the device and type carries
/// the new version too (``OrderStorage/PendingPush/coalesced`` counts the versions it stands for).
/// A dialect only places the statement — on its own in SQLite's unit of work, as a step of
/// PostgreSQL's one replacing statement.
package enum PushEnqueue {
    /// The `INSERT … SELECT` for the order whose type and identifier are the placeholders `type`
    /// and `identifier`, enqueued at `time`; with `joining`, a step of the same statement whose
    /// rows it is joined with (PostgreSQL's `old`: nothing is owed unless a version was replaced).
    package static func sql(type: String, identifier: String, time: String, joining step: String? = nil) -> String {
        """
        INSERT INTO pushOutbox (pushToken, orderTypeIdentifier, orderIdentifier, deviceIdentifier, enqueuedAt, nextAttemptAt)
        SELECT r.pushToken, r.orderTypeIdentifier, r.orderIdentifier, r.deviceIdentifier, \(time), \(time)
        FROM orderRegistrations r\(step.map { ", \($0)" } ?? "") WHERE r.orderTypeIdentifier = \(type) AND r.orderIdentifier = \(identifier)
        ON CONFLICT (deviceIdentifier, orderTypeIdentifier) DO UPDATE SET coalesced = pushOutbox.coalesced + 1,
        pushToken = excluded.pushToken, orderIdentifier = excluded.orderIdentifier
        """
    }
}
