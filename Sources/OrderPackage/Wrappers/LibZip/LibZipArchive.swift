import CZip
import Foundation

/// An owned libzip `zip_t`, with the few operations order packages need. Discarded on deinit
/// unless ``close()`` wrote it out first.
final class LibZipArchive {
    private var pointer: OpaquePointer?

    /// Read an existing archive, or start an empty one that ``close()`` writes into the source.
    enum Mode {
        case readOnly
        case create
    }

    /// Opens an archive over `source`; the archive takes its own reference to the source.
    init(source: LibZipSource, mode: Mode) throws(LibZipError) {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        // zip_open_from_source adopts one reference on success only.
        zip_source_keep(source.pointer)
        guard let archive = zip_open_from_source(source.pointer, mode == .readOnly ? ZIP_RDONLY : ZIP_TRUNCATE, &error)
        else {
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

    private func handle() throws(LibZipError) -> OpaquePointer {
        guard let pointer else { throw LibZipError(code: ZIP_ER_ZIPCLOSED) }
        return pointer
    }

    // MARK: - Reading

    /// One central-directory entry as libzip reads it.
    struct EntryStat {
        /// The name's bytes exactly as stored (no encoding conversion).
        var rawName: [UInt8]
        var size: UInt64
        var compressedSize: UInt64
        var crc32: UInt32
        var method: UInt16
        /// Whether libzip knows all four of the above (it does for any entry it read from a
        /// central directory).
        var isComplete: Bool
        var isEncrypted: Bool
        /// Unix attributes with the S_IFLNK file type.
        var isSymbolicLink: Bool
    }

    /// The number of entries, or nil when libzip cannot tell.
    var entryCount: Int? {
        guard let pointer else { return nil }
        let count = zip_get_num_entries(pointer, 0)
        return count >= 0 ? Int(count) : nil
    }

    /// The entry at `index`, or nil when libzip cannot read it.
    func stat(at index: Int) -> EntryStat? {
        guard let pointer, index >= 0 else { return nil }
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_stat_index(pointer, zip_uint64_t(index), zip_flags_t(ZIP_FL_ENC_RAW), &stat) == 0, let name = stat.name
        else { return nil }
        let required = zip_uint64_t(ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_CRC | ZIP_STAT_COMP_METHOD)
        return EntryStat(
            rawName: Array(UnsafeRawBufferPointer(start: name, count: strlen(name))),
            size: stat.size, compressedSize: stat.comp_size, crc32: stat.crc,
            method: UInt16(truncatingIfNeeded: stat.comp_method),
            isComplete: stat.valid & required == required,
            isEncrypted: stat.valid & zip_uint64_t(ZIP_STAT_ENCRYPTION_METHOD) != 0 && stat.encryption_method != ZIP_EM_NONE,
            isSymbolicLink: isSymbolicLink(pointer, zip_uint64_t(index)))
    }

    /// Unix symlinks carry S_IFLNK in the high 16 bits of the external attributes.
    private func isSymbolicLink(_ pointer: OpaquePointer, _ index: zip_uint64_t) -> Bool {
        var system: zip_uint8_t = 0
        var attributes: zip_uint32_t = 0
        guard zip_file_get_external_attributes(pointer, index, 0, &system, &attributes) == 0 else { return false }
        guard system == zip_uint8_t(ZIP_OPSYS_UNIX) else { return false }
        return (attributes >> 16) & 0o170000 == 0o120000
    }

    // MARK: - Writing

    /// Adds a regular file (mode 0644, Unix attributes), its name flagged UTF-8.
    func add(name: String, contents: Data, deflate: Bool, modificationDate: Date) throws(LibZipError) {
        let pointer = try handle()
        guard let source = try Self.source(for: contents, in: pointer) else { throw LibZipError(archive: pointer) }
        let index = zip_file_add(pointer, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(source)
            throw LibZipError(archive: pointer)
        }
        let entry = zip_uint64_t(index)
        let regularFile: zip_uint32_t = 0o100644 << 16
        guard zip_set_file_compression(pointer, entry, deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) == 0,
            zip_file_set_mtime(pointer, entry, time_t(modificationDate.timeIntervalSince1970.rounded(.down)), 0) == 0,
            zip_file_set_external_attributes(pointer, entry, 0, zip_uint8_t(ZIP_OPSYS_UNIX), regularFile) == 0
        else { throw LibZipError(archive: pointer) }
    }

    /// A libzip source owning a copy of `contents` (freep = 1: libzip frees it once the archive
    /// is written or discarded). An empty file gets no buffer: libzip keeps no fragment for a
    /// zero-length one and would never free it.
    private static func source(for contents: Data, in pointer: OpaquePointer) throws(LibZipError) -> OpaquePointer? {
        guard !contents.isEmpty else { return zip_source_buffer(pointer, nil, 0, 0) }
        guard let copy = malloc(contents.count) else { throw LibZipError(code: ZIP_ER_MEMORY) }
        contents.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) }
        }
        guard let source = zip_source_buffer(pointer, copy, zip_uint64_t(contents.count), 1) else {
            free(copy)
            return nil
        }
        return source
    }
}
