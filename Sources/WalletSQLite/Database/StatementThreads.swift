import WalletStorage

/// SQLite's statement threads: every statement of a read and of a unit of work, and every
/// COMMIT, runs on one of them (``SQLiteExecutor``).
///
/// SQLite's calls block the thread they run on (the disk, `fsync` at COMMIT, a read of a
/// 50,000-row batch); on Swift concurrency's cooperative pool, two such calls would stop every
/// other task of a two-core process — request handlers included — until they returned. One hop
/// here and back costs two thread wake-ups per read or unit of work, not per statement.
enum StatementThreads {
    /// The process's, whatever number of stores it opens.
    static let shared = StorageThreads(name: "sqlite")
}
