import CZip
import Foundation

/// An owned libzip `zip_t`. Discarded on deinit unless ``close()`` wrote it out first.
final class LibZipArchive {
    private(set) var pointer: OpaquePointer?

    /// Opens an archive over `source`; the archive takes its own reference to the source.
    init(source: LibZipSource, flags: Int32) throws(LibZipError) {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        // zip_open_from_source adopts one reference on success only.
        zip_source_keep(source.pointer)
        guard let archive = zip_open_from_source(source.pointer, flags, &error) else {
            zip_source_free(source.pointer)
            throw LibZipError(&error)
        }
        pointer = archive
    }

    /// Writes pending changes into the source and releases the archive.
    func close() throws(LibZipError) {
        guard let archive = pointer else { return }
        guard zip_close(archive) == 0 else { throw LibZipError(archive: archive) }
        pointer = nil
    }

    deinit {
        if let pointer { zip_discard(pointer) }
    }
}

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
