/// The tracking-number index a save keeps (``OrderStorage/OrderCandidate/trackingKeys``): the
/// parcels the current version of each order names. A dialect's ``OrderVersionWrites`` writes it
/// with the version — SQLite with these statements in its unit of work, PostgreSQL as steps of
/// its one statement, from the keys joined by ``separator`` (a key is letters and digits only).
package enum TrackingIndex {
    package static let separator = " "

    /// `$1` key, `$2` type, `$3` identifier, `$4` the version's change number.
    package static let insertSQL = """
        INSERT INTO trackingNumbers (trackingKey, orderTypeIdentifier, orderIdentifier, changeSequence) VALUES ($1, $2, $3, $4)
        """

    /// `$1` type, `$2` identifier: the entries of the version being replaced.
    package static let deleteSQL = "DELETE FROM trackingNumbers WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2"

    /// The keys as one argument, for a statement that splits them.
    package static func joined(_ keys: [String]) -> SQLValue {
        .text(keys.joined(separator: separator))
    }

    /// Writes the keys of the order `$1`/`$2` of `version`, whose change number is `sequence`,
    /// one statement each, after removing the replaced version's when `replacing`.
    package static func write(
        _ keys: [String], of version: [SQLValue], sequence: Int64, replacing: Bool, on connection: any SQLConnection
    ) async throws {
        let key = Array(version[0...1])
        if replacing { try await connection.execute(deleteSQL, key) }
        for trackingKey in keys { try await connection.execute(insertSQL, [.text(trackingKey)] + key + [.integer(sequence)]) }
    }
}
