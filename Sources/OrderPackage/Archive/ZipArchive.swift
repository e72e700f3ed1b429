import Foundation
import WalletPrimitives

/// The files of a zip archive, read from memory through libzip with ``ArchiveLimits`` enforced
/// while inflating.
///
/// Reading never writes to disk. The central directory's sizes are held to the limits before
/// anything is inflated, and inflating never goes past a declared size: an entry whose data
/// inflates further is rejected after one extra byte, so a zip bomb costs at most the limits in
/// memory, however its headers lie.
///
/// ```swift
/// let archive = try ZipArchive(reading: bytes)
/// let orderJSON = archive["order.json"]
/// ```
public struct ZipArchive: Sendable {
    /// One regular file of the archive.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var contents: Data
        public var compression: CompressionMethod
    }

    /// The two compression methods order packages may use.
    public enum CompressionMethod: Int, Sendable, Hashable, Codable {
        case stored = 0
        case deflate = 8
    }

    /// Regular files in central-directory order. Directory entries are not included.
    public let entries: [Entry]
    private let indexByName: [String: Int]

    /// Reads every file of `data`, or only those whose names `isIncluded` accepts: every entry is
    /// still checked (layout, names, limits), but only the included ones are inflated — a reader
    /// that needs the `order.strings` files does not pay for the images.
    ///
    /// - Throws: ``ArchiveRejection`` listing every problem found. Container-level problems (not a
    ///   zip, damaged, over a limit) end the reading at once; problems with individual entry
    ///   names are collected for all entries before giving up.
    public init(
        reading data: Data, limits: ArchiveLimits = ArchiveLimits(), including isIncluded: (String) -> Bool = { _ in true }
    ) throws(ArchiveRejection) {
        // libzip opens zero bytes as an empty archive; a zero-byte file is not a zip.
        guard !data.isEmpty else { throw ArchiveRejection([.notZip]) }
        guard data.count <= limits.maximumArchiveSize else {
            throw ArchiveRejection([.archiveTooLarge(size: data.count, limit: limits.maximumArchiveSize)])
        }
        let result: Result<[Entry], ArchiveRejection> = data.withUnsafeBytes { buffer in
            Result { () throws(ArchiveRejection) -> [Entry] in
                try Self.readEntries(buffer, limits: limits, including: isIncluded)
            }
        }
        entries = try result.get()
        var index: [String: Int] = [:]
        for (position, entry) in entries.enumerated() { index[entry.name] = position }
        indexByName = index
    }

    /// Files already in memory, as a package's would be read: for checking content before it is
    /// packaged (``OrderVerifier/checkUnsigned(files:)``).
    init(entries: [Entry]) {
        self.entries = entries
        var index: [String: Int] = [:]
        for (position, entry) in entries.enumerated() { index[entry.name] = position }
        indexByName = index
    }

    /// The contents of the file called `name`, if present.
    public subscript(name: String) -> Data? {
        indexByName[name].map { entries[$0].contents }
    }

    /// Whether a file called `name` is present.
    public func contains(_ name: String) -> Bool {
        indexByName[name] != nil
    }

    /// The names of all files, in archive order.
    public var names: [String] {
        entries.map(\.name)
    }

    // MARK: - Reading

    private static func readEntries(
        _ buffer: UnsafeRawBufferPointer,
        limits: ArchiveLimits,
        including isIncluded: (String) -> Bool
    ) throws(ArchiveRejection) -> [Entry] {
        // Every byte must belong to one record before any reader is trusted with the archive.
        let layout = try ZipLayout(validating: buffer, maximumEntryCount: limits.maximumEntryCount)
        let archive: LibZipArchive
        do {
            let source = try LibZipSource(borrowing: buffer)
            archive = try LibZipArchive(source: source, mode: .readOnly)
        } catch {
            throw ArchiveRejection([openError(error, buffer: buffer)])
        }

        guard let count = archive.entryCount else {
            throw ArchiveRejection([.corrupt(entry: nil, reason: "unreadable central directory")])
        }
        guard count <= limits.maximumEntryCount else {
            throw ArchiveRejection([.tooManyEntries(count: count, limit: limits.maximumEntryCount)])
        }
        guard count == layout.entries.count else {
            throw ArchiveRejection([.corrupt(entry: nil, reason: "libzip reads another central directory than the layout check")])
        }

        // Pass 1: inspect the central directory; nothing is inflated yet.
        var problems: [ArchiveError] = []
        var files: [(name: String, size: UInt64, method: CompressionMethod, layout: ZipLayout.Entry)] = []
        var seen: Set<String> = []
        var folded = ArchiveEntryName.FoldedNames()
        var declaredTotal: UInt64 = 0
        for index in 0..<count {
            guard let stat = archive.stat(at: index) else {
                throw ArchiveRejection([.corrupt(entry: nil, reason: "entry \(index) cannot be read")])
            }
            let entry = layout.entries[index]
            guard Self.agrees(stat, with: entry, in: buffer) else {
                let name = ZipLayout.displayName(LittleEndianReader(buffer), entry.nameRange)
                throw ArchiveRejection([.corrupt(entry: name, reason: "libzip reads the entry differently than the layout check")]
                )
            }
            guard let name = stat.rawName.withUnsafeBytes({ String(validUTF8: $0) }) else {
                let printable = String(decoding: stat.rawName, as: UTF8.self)
                problems.append(.unsafePath(entry: printable, reason: "the name is not valid UTF-8"))
                continue
            }
            if let reason = ArchiveEntryName.unsafeReason(name) {
                problems.append(.unsafePath(entry: name, reason: reason))
                continue
            }
            if ArchiveEntryName.isMetadata(name) {
                problems.append(.metadataFile(name))
                continue
            }
            // Swift's String equality is canonical equivalence: an NFC and an NFD spelling meet
            // here too, and only the same bytes are a duplicate (the others are ambiguous, below).
            let (inserted, member) = seen.insert(name)
            if !inserted, member.utf8.elementsEqual(name.utf8) {
                problems.append(.duplicateEntry(name))
                continue
            }
            if let other = folded.collision(of: name) {
                problems.append(.ambiguousName(entry: name, other: other))
                continue
            }
            if stat.isSymbolicLink {
                problems.append(.symbolicLink(name))
                continue
            }
            if ArchiveEntryName.isDirectory(name) { continue }
            if stat.isEncrypted {
                problems.append(.encryptedEntry(name))
                continue
            }
            guard let method = CompressionMethod(rawValue: Int(stat.method)) else {
                problems.append(.unsupportedCompression(entry: name, method: Int(stat.method)))
                continue
            }
            if stat.size > UInt64(limits.maximumEntrySize) {
                problems.append(.entryTooLarge(entry: name, limit: limits.maximumEntrySize))
                continue
            }
            declaredTotal += stat.size
            files.append((name, stat.size, method, entry))
        }
        guard problems.isEmpty else { throw ArchiveRejection(problems) }
        guard declaredTotal <= UInt64(limits.maximumTotalUncompressedSize) else {
            throw ArchiveRejection([.uncompressedTooLarge(limit: limits.maximumTotalUncompressedSize)])
        }

        // Pass 2: each entry's data (EntryDataReader), never inflated past its declared size.
        var entries: [Entry] = []
        entries.reserveCapacity(files.count)
        for file in files where isIncluded(file.name) {
            let data = UnsafeRawBufferPointer(rebasing: buffer[file.layout.dataRange])
            let size = Int(file.size)
            switch EntryDataReader.read(data, compression: file.method, declaredSize: size, crc32: file.layout.crc32) {
            case .complete(let contents, let endsExactly):
                // A streaming reader finds the end of a data-descriptor entry by inflating, while
                // the central directory gives its compressed size: bytes between the two would be
                // a hidden record to the first kind of reader and invisible to the second.
                if file.layout.hasDataDescriptor, !endsExactly {
                    throw ArchiveRejection([
                        .corrupt(
                            entry: file.name,
                            reason: "the deflate stream ends before the entry's compressed size; "
                                + "streaming readers would take the rest for other records")
                    ])
                }
                entries.append(Entry(name: file.name, contents: contents, compression: file.method))
            case .short(let count):
                throw ArchiveRejection([
                    .corrupt(entry: file.name, reason: "inflated to \(count) bytes, the directory says \(size)")
                ])
            case .longer:
                throw ArchiveRejection([
                    .corrupt(entry: file.name, reason: "the entry inflates beyond the \(size) bytes its header declares")
                ])
            case .crcMismatch:
                throw ArchiveRejection([
                    .corrupt(entry: file.name, reason: "CRC mismatch: the entry's contents do not match its checksum")
                ])
            case .damaged(let reason):
                throw ArchiveRejection([.corrupt(entry: file.name, reason: "the deflate data is damaged (\(reason))")])
            }
        }
        return entries
    }

    /// Whether libzip's view of an entry is the one the layout check confirmed.
    private static func agrees(
        _ stat: LibZipArchive.EntryStat, with entry: ZipLayout.Entry, in buffer: UnsafeRawBufferPointer
    ) -> Bool {
        stat.isComplete && stat.rawName.elementsEqual(buffer[entry.nameRange])
            && stat.size == UInt64(entry.uncompressedSize) && stat.compressedSize == UInt64(entry.compressedSize)
            && stat.crc32 == entry.crc32 && stat.method == entry.method
    }

    private static func openError(_ error: LibZipError, buffer: UnsafeRawBufferPointer) -> ArchiveError {
        switch error.kind {
        case .notZip:
            // A local-file header without an end-of-central-directory record is a cut-off zip.
            let localHeader: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
            if buffer.count >= 4, Array(buffer.prefix(4)) == localHeader {
                return .corrupt(entry: nil, reason: "truncated: the end of central directory record is missing")
            }
            return .notZip
        case .multiDisk:
            return .corrupt(entry: nil, reason: "multi-disk archives are not supported")
        default:
            return .corrupt(entry: nil, reason: error.description)
        }
    }
}
