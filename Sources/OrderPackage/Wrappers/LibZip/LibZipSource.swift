import CZip
import Foundation

/// An owned reference to a libzip `zip_source_t`.
final class LibZipSource {
    let pointer: OpaquePointer

    /// A source over `buffer`, which libzip reads but never frees; the buffer must outlive it.
    init(borrowing buffer: UnsafeRawBufferPointer) throws(LibZipError) {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(buffer.baseAddress, zip_uint64_t(buffer.count), 0, &error)
        else { throw LibZipError(&error) }
        pointer = source
    }

    /// An empty, writable in-memory source.
    convenience init() throws(LibZipError) {
        try self.init(borrowing: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// All bytes the source holds (after an archive was closed into it).
    func readAll() throws(LibZipError) -> Data {
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_source_stat(pointer, &stat) == 0 else { throw LibZipError(source: pointer) }
        guard zip_source_open(pointer) == 0 else { throw LibZipError(source: pointer) }
        defer { zip_source_close(pointer) }
        var data = Data(count: Int(stat.size))
        let read = data.withUnsafeMutableBytes { buffer in
            zip_source_read(pointer, buffer.baseAddress, zip_uint64_t(buffer.count))
        }
        guard read == Int64(stat.size) else { throw LibZipError(source: pointer) }
        return data
    }

    deinit {
        zip_source_free(pointer)
    }
}
