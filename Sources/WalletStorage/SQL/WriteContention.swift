/// How many writes of a store wait behind another writer right now — SQLite's at the backend's
/// write gate, PostgreSQL's on a lock in the store's database. For tests that race a write against
/// a unit of work: they wait until the race is set up (the write is waiting) instead of sleeping
/// and hoping it is.
package protocol WriteContention: Sendable {
    func blockedWriters() async throws -> Int
}
