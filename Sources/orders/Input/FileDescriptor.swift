import Foundation

/// The two system calls every command's input and output go through, with `EINTR` retried and
/// every other failure reported as a ``POSIXFailure``. (Foundation's `FileHandle` traps on write
/// errors and reads without a bound.)
enum FileDescriptor {
    /// Writes all of `bytes`.
    static func writeAll(_ bytes: some Sequence<UInt8>, to descriptor: Int32) throws(POSIXFailure) {
        let buffer = Array(bytes)
        var written = 0
        while written < buffer.count {
            let result = buffer.withUnsafeBytes { pointer in
                Glibc.write(descriptor, pointer.baseAddress.map { $0 + written }, pointer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw POSIXFailure(errno: errno)
            }
            written += result
        }
    }

    /// Reads to the end, but never more than `limit` + 1 bytes: that byte proves the input too
    /// large. `expectedSize` (a regular file's size) sizes the first buffer.
    static func read(_ descriptor: Int32, limit: Int, expectedSize: Int? = nil) throws(POSIXFailure) -> Data? {
        var data = Data(count: min(limit + 1, expectedSize.map { $0 + 1 } ?? 64 << 10))
        var filled = 0
        while true {
            if filled == data.count {
                guard data.count <= limit else { break }
                data.count = min(limit + 1, data.count * 2)
            }
            let read = data.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw POSIXFailure(errno: errno)
            }
            if read == 0 { break }
            filled += read
        }
        guard filled <= limit else { return nil }
        data.count = filled
        return data
    }
}

/// An `errno` as a one-line reason ("No such file or directory").
struct POSIXFailure: Error, CustomStringConvertible {
    var errno: Int32

    var description: String {
        String(cString: strerror(errno))
    }
}
