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
        // Not `Data(count:)`: zero-filling a buffer that read(2) fills anyway was a twentieth of
        // `orders verify`'s time.
        var capacity = min(limit + 1, expectedSize.map { $0 + 1 } ?? 64 << 10)
        guard var buffer = malloc(capacity) else { throw POSIXFailure(errno: ENOMEM) }
        var filled = 0
        while true {
            if filled == capacity {
                guard capacity <= limit else { break }
                capacity = min(limit + 1, capacity * 2)
                guard let grown = realloc(buffer, capacity) else {
                    free(buffer)
                    throw POSIXFailure(errno: ENOMEM)
                }
                buffer = grown
            }
            let read = Glibc.read(descriptor, buffer + filled, capacity - filled)
            if read < 0 {
                if errno == EINTR { continue }
                let failure = POSIXFailure(errno: errno)
                free(buffer)
                throw failure
            }
            if read == 0 { break }
            filled += read
        }
        guard filled <= limit else {
            free(buffer)
            return nil
        }
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
    }
}

/// An `errno` as a one-line reason ("No such file or directory").
struct POSIXFailure: Error, CustomStringConvertible {
    var errno: Int32

    var description: String {
        String(cString: strerror(errno))
    }
}
