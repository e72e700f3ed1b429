import CZip
import Foundation
import WalletPrimitives

/// Writes a zip archive in memory through libzip.
///
/// ```swift
/// var writer = ZipArchiveWriter(modificationDate: Date())
/// writer.add("order.json", contents: json)
/// let bytes = try writer.finish()
/// ```
public struct ZipArchiveWriter: Sendable {
    /// A file queued for writing.
    public struct File: Sendable, Hashable {
        public var name: String
        public var contents: Data
        public var compression: ZipArchive.CompressionMethod
    }

    /// The time stamped on every entry (zip stores it with 2-second resolution).
    public var modificationDate: Date
    public private(set) var files: [File] = []

    public init(modificationDate: Date) {
        self.modificationDate = modificationDate
    }

    /// Queues a file. Names are written as given, flagged UTF-8.
    public mutating func add(
        _ name: String, contents: Data, compression: ZipArchive.CompressionMethod = .deflate
    ) {
        files.append(File(name: name, contents: contents, compression: compression))
    }

    /// Writes the queued files, in order, and returns the archive's bytes.
    public func finish() throws(ArchiveWriteError) -> Data {
        do throws(LibZipError) {
            let target = try LibZipSource()
            let archive = try LibZipArchive(source: target, flags: ZIP_TRUNCATE)
            guard let handle = archive.pointer else { throw LibZipError(code: ZIP_ER_INTERNAL) }
            for file in files {
                try add(file, to: handle)
            }
            try archive.close()
            return try target.readAll()
        } catch {
            throw ArchiveWriteError(reason: error.description)
        }
    }

    /// A libzip source owning a copy of `contents` (freep = 1: libzip frees it once the archive
    /// is written or discarded). An empty file gets no buffer: libzip keeps no fragment for a
    /// zero-length one and would never free it.
    private static func source(for contents: Data, in handle: OpaquePointer) throws(LibZipError) -> OpaquePointer? {
        guard !contents.isEmpty else { return zip_source_buffer(handle, nil, 0, 0) }
        guard let copy = malloc(contents.count) else { throw LibZipError(code: ZIP_ER_MEMORY) }
        contents.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) }
        }
        guard let source = zip_source_buffer(handle, copy, zip_uint64_t(contents.count), 1) else {
            free(copy)
            return nil
        }
        return source
    }

    private func add(_ file: File, to handle: OpaquePointer) throws(LibZipError) {
        guard let source = try Self.source(for: file.contents, in: handle) else { throw LibZipError(archive: handle) }
        let index = zip_file_add(handle, file.name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(source)
            throw LibZipError(archive: handle)
        }
        let entry = zip_uint64_t(index)
        let method: Int32 = file.compression == .stored ? ZIP_CM_STORE : ZIP_CM_DEFLATE
        let regularFile: zip_uint32_t = 0o100644 << 16
        guard zip_set_file_compression(handle, entry, method, 0) == 0,
            zip_file_set_mtime(handle, entry, ASN1Time.epochSeconds(modificationDate), 0) == 0,
            zip_file_set_external_attributes(handle, entry, 0, zip_uint8_t(ZIP_OPSYS_UNIX), regularFile) == 0
        else { throw LibZipError(archive: handle) }
    }
}

/// libzip could not write an archive (out of memory, or an invalid name).
public struct ArchiveWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var description: String { "could not write the archive: \(reason)" }
}

extension ArchiveWriteError: WalletError {
    public var code: String { "archive.writeFailed" }
    public var message: String { description }
    public var category: ErrorCategory { .invalidInput }
}
