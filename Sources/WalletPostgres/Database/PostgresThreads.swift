import WalletStorage

/// The PostgreSQL backend's threads: the body of each read and unit of work — the repositories'
/// code between statements, the decoding of the rows — runs on one of them (``PostgresExecutor``),
/// never on an event loop, where a 50,000-row import's batches held every other connection of
/// that loop, nor on Swift concurrency's pool. `orders serve` runs its handlers here too
/// (``PostgresBackend/taskExecutor``), as it runs them on SQLite's statement threads: one
/// threading model whatever the backend (docs/design.md, "One threading model").
enum PostgresThreads {
    /// The process's, whatever number of stores it opens.
    static let shared = StorageThreads(name: "postgres")
}
