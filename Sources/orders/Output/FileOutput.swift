import Foundation

/// Writes command output files: to standard output for `-`, otherwise atomically and only ever as
/// a regular file.
///
/// An atomic write creates a temporary file beside the target and renames it over the target.
/// Renaming over a device node, FIFO or socket would replace it with a regular file (as root,
/// `-o /dev/null` would destroy `/dev/null`), so an existing target that is not a regular file is
/// refused. A symbolic link is followed, and its target judged the same way. Every write error is
/// reported (a full disk, `-o - > /dev/full`), and a failed write leaves the target untouched.
enum FileOutput {
    /// Writes `data` to `path`, or to standard output when `path` is `-`.
    static func write(_ data: Data, to path: String) throws {
        if path == "-" {
            try writeAll(data, to: STDOUT_FILENO, name: "standard output")
            return
        }
        let target = try regularFileTarget(path)
        let folder = (target as NSString).deletingLastPathComponent
        let template = (folder.isEmpty ? "." : folder) + "/.orders-XXXXXX"
        var buffer = Array(template.utf8CString)
        let descriptor = buffer.withUnsafeMutableBufferPointer { pointer -> Int32 in
            guard let base = pointer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw CommandFailure("cannot write \(path): \(POSIXFailure(errno: errno))") }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: buffer.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            // mkstemp creates 0600; give the file the mode a new file would get.
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, 0o666 & ~mask)
            try writeAll(data, to: descriptor, name: path)
            guard fsync(descriptor) == 0 else { throw CommandFailure("cannot write \(path): \(POSIXFailure(errno: errno))") }
        }
        guard rename(temporary, target) == 0 else {
            throw CommandFailure("cannot write \(path): \(POSIXFailure(errno: errno))")
        }
        renamed = true
    }

    /// The path to rename onto: `path` itself when it does not exist or is a regular file, the
    /// file a symbolic link leads to when that is a regular file; anything else is refused.
    private static func regularFileTarget(_ path: String) throws -> String {
        var status = stat()
        // stat follows links, magic ones like /dev/stdout → pipe:[…] included.
        if stat(path, &status) == 0 {
            let kind = status.st_mode & S_IFMT
            guard kind == S_IFREG else {
                throw CommandFailure(
                    "cannot write \(path): it is \(describe(kind)), not a regular file (use -o - to write to standard output)")
            }
            var link = stat()
            guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { return path }
            guard let resolved = realpath(path, nil) else {
                throw CommandFailure("cannot write \(path): \(POSIXFailure(errno: errno))")
            }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard errno == ENOENT else { throw CommandFailure("cannot write \(path): \(POSIXFailure(errno: errno))") }
        var link = stat()
        if lstat(path, &link) == 0 { throw CommandFailure("cannot write \(path): it is a symbolic link to a missing file") }
        return path
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, name: String) throws {
        do {
            try FileDescriptor.writeAll(data, to: descriptor)
        } catch {
            throw CommandFailure("cannot write \(name): \(error)")
        }
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
