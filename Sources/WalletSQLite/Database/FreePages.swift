import GRDB

/// Giving back the space of what was deleted.
///
/// SQLite keeps a deleted row's pages in the file for reuse: after an order with thousands of
/// registrations is removed the file stays as large as before. A store created by this version
/// has `auto_vacuum = INCREMENTAL`, so a large deletion is followed by `PRAGMA
/// incremental_vacuum`, which moves free pages to the end of the file and truncates it, in the
/// deleting transaction. Older stores (`auto_vacuum = NONE`) are converted, and compacted at
/// once, by ``compact(_:)`` (`orders doctor --compact`).
enum FreePages {
    /// Free pages worth giving back: 1 MiB at SQLite's default 4 KiB page.
    static let threshold = 256

    /// Truncates the file by its free pages when there are at least ``threshold`` of them and
    /// the store can (`auto_vacuum = INCREMENTAL`); inside the caller's write.
    static func release(_ db: Database) throws {
        guard try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2,
            try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0 >= threshold
        else { return }
        try db.execute(sql: "PRAGMA incremental_vacuum")
    }

    /// Rewrites the whole file without free pages, switching it to incremental auto-vacuum.
    /// Needs as much free disk as the store's size, and the write lock for as long as it takes.
    static func compact(_ db: Database) throws {
        try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
        try db.execute(sql: "VACUUM")
    }
}
