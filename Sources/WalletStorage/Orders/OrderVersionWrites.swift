/// The two writes of a save that each database makes atomic its own way.
///
/// `version` holds the values of ``OrderColumns/version`` in order (`$1`…`$15`; `$13`, the new
/// version's `addedAt`, is also the replaced version's `replacedAt`). Each returns false when the
/// stored order is no longer what the save decided on — another save came first — and then
/// nothing was written; the save reads and decides again. Each also makes `trackingKeys` the
/// order's entries of the tracking-number index (``TrackingIndex``), with the version.
package protocol OrderVersionWrites: Sendable {
    /// Inserts a new order with the next change number.
    func insert(_ version: [SQLValue], trackingKeys: [String], on connection: any SQLConnection) async throws -> Bool
    /// Moves the stored version (whose archive digest is `expectedDigest`) to the history, owes
    /// every registered device a push, and stores `version` with the next change number.
    func replace(
        _ version: [SQLValue], trackingKeys: [String], expectedDigest: String, on connection: any SQLConnection
    ) async throws -> Bool
}
