import Foundation

/// Reads input files for the commands, never more than a limit.
///
/// Any path may name a device, a FIFO or a file that grows while it is read (`/dev/zero`,
/// `<(cat …)`), so the size `stat` reports is only a hint: reading stops one byte past the limit
/// whatever the file is, and that byte proves the input too large.
enum FileInput {
    enum Contents {
        case complete(Data)
        /// Over the limit; `size` is the file's size when it is a regular file.
        case tooLarge(size: Int?)
    }

    /// Up to `limit` bytes of the file at `path`, or ``Contents/tooLarge(size:)``.
    static func read(_ path: String, limit: Int) throws -> Contents {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXFailure(errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw POSIXFailure(errno: errno) }
        if status.st_mode & S_IFMT == S_IFDIR { throw POSIXFailure(errno: EISDIR) }
        let regularSize = status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : nil
        if let regularSize, regularSize > limit { return .tooLarge(size: regularSize) }

        guard let data = try FileDescriptor.read(descriptor, limit: limit, expectedSize: regularSize) else {
            return .tooLarge(size: regularSize)
        }
        return .complete(data)
    }
}

extension FileInput {
    /// Certificates, keys, token files: small inputs for which a huge file is simply a mistake.
    static let smallFileLimit = 1 << 20

    /// The whole file, or an error naming it when it has more than `limit` bytes.
    static func read(_ path: String, upTo limit: Int = smallFileLimit) throws -> Data {
        switch try read(path, limit: limit) {
        case .complete(let data): return data
        case .tooLarge: throw CommandFailure("it is larger than \(limit) bytes, too large for what this command reads")
        }
    }

    /// ``read(_:upTo:)`` for a command: a failure is `cannot read [WHAT ]PATH: reason`.
    static func contents(of path: String, what: String? = nil) throws(CommandFailure) -> Data {
        do {
            return try read(path)
        } catch {
            throw CommandFailure("cannot read \(what.map { "\($0) " } ?? "")\(path): \(TrustOptions.reason(error))")
        }
    }
}
