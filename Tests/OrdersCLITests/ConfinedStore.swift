import Foundation
import TestArchiveTable

/// A store on a file system of its own — a tmpfs of a chosen size, or one remounted read-only —
/// that only one `orders` process sees.
///
/// `unshare --user --map-root-user --mount` gives the command a private mount namespace without
/// privileges, so SQLite meets a disk that is really full (`ENOSPC`) or really read-only
/// (`EROFS`): nothing is injected into our code. The seed folder's files are copied onto the
/// tmpfs first and copied back into a fresh folder afterwards (the tmpfs ends with the command),
/// where the test opens and checks them.
struct ConfinedStore {
    /// The store's file name inside ``seed`` and ``result``.
    static let fileName = "orders.sqlite"
    /// `orders` arguments use this where the store's path on the tmpfs goes.
    static let storePlaceholder = "STORE"

    /// The folder holding the store before the command (the test fills it).
    let seed: URL
    /// The folder holding the store files copied back after the command.
    let result: URL
    private let mountPoint: URL

    init(in workspace: URL) throws {
        seed = workspace.appendingPathComponent("seed")
        result = workspace.appendingPathComponent("result")
        mountPoint = workspace.appendingPathComponent("tmpfs")
        for folder in [seed, mountPoint] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    var seedStore: String { seed.appendingPathComponent(Self.fileName).path }
    var resultStore: String { result.appendingPathComponent(Self.fileName).path }

    /// Bytes the seed's files take on a tmpfs (whole 4 KiB pages).
    func seedKibibytes() throws -> Int {
        try FileManager.default.contentsOfDirectory(at: seed, includingPropertiesForKeys: [.fileSizeKey]).reduce(0) {
            total, file in
            let size = try file.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
            return total + (size + 4095) / 4096 * 4
        }
    }

    /// Runs `orders arguments` with the store on a tmpfs of the seed's size plus `headroom` KiB
    /// (SQLite's 32 KiB `-shm` index lives there too), or on the seed's size remounted read-only.
    func run(_ arguments: [String], headroom: Int = 0, readOnly: Bool = false) async throws -> OrdersProcess.Result {
        let store = mountPoint.appendingPathComponent(Self.fileName).path
        let size = try seedKibibytes() + headroom + (readOnly ? 64 : 0)
        let script = """
            set -eu
            result=$0 tmpfs=$1
            mount -t tmpfs -o size=$3k tmpfs "$tmpfs"
            cp -a "$2"/. "$tmpfs"/
            if [ "$4" = 1 ]; then mount -o remount,ro "$tmpfs"; fi
            shift 4
            status=0
            "$@" || status=$?
            rm -rf "$result" && mkdir -p "$result" && cp -a "$tmpfs"/. "$result"/
            exit $status
            """
        let command =
            ["--user", "--map-root-user", "--mount", "/bin/bash", "-c", script, result.path, mountPoint.path, seed.path]
            + [String(size), readOnly ? "1" : "0", OrdersProcess.binary.path]
            + arguments.map { $0 == Self.storePlaceholder ? store : $0 }
        return try await OrdersProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/unshare"), command, in: seed.deletingLastPathComponent(), timeout: 120)
    }

    /// The seed's files and their bytes, to show a refused command changed nothing.
    func snapshot(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
            files[file.lastPathComponent] = try Data(contentsOf: file)
        }
        return files
    }
}
