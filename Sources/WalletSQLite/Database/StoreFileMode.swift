import Glibc

/// Who may read the store's files — the database, its `-wal` and `-shm`, its lock file — and the
/// folder the store creates for them. They hold order tokens, kept answers that contain tokens,
/// the owner's password hash and financial data, so they are created private whatever the
/// process's umask (docs/hardening.md, "Files the service writes"). SQLite gives its `-wal` and
/// `-shm` the database file's mode, so setting it on the file sets it on all three.
///
/// Files that exist are left as they are: their mode is the operator's.
public enum StoreFileMode: String, Sendable, Hashable, CaseIterable {
    /// `0600` files, a `0700` folder: the owner alone.
    case ownerOnly = "0600"
    /// `0640` files, a `0750` folder: the owner's group may read (a backup agent, say), never write.
    case groupReadable = "0640"

    /// The files' permission bits.
    public var fileMode: mode_t {
        switch self {
        case .ownerOnly: 0o600
        case .groupReadable: 0o640
        }
    }

    /// The permission bits of a folder the store creates.
    public var folderMode: mode_t {
        switch self {
        case .ownerOnly: 0o700
        case .groupReadable: 0o750
        }
    }
}
