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
            let archive = try LibZipArchive(source: target, mode: .create)
            for file in files {
                try archive.add(
                    name: file.name, contents: file.contents, deflate: file.compression == .deflate,
                    modificationDate: modificationDate)
            }
            try archive.close()
            return try target.readAll()
        } catch {
            throw ArchiveWriteError(reason: error.description)
        }
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
