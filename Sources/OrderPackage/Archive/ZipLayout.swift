import WalletPrimitives

/// The record layout of a zip archive, checked before libzip reads it so that every kind of
/// reader sees the same files.
///
/// Readers disagree about ambiguous archives. libzip takes the first plausible end record in the
/// last 64 KiB, `unzip` and Python the last one; all of them then trust the central directory,
/// while streaming readers walk the local headers from the front. Appending a second archive,
/// hiding one in the archive comment, leaving bytes between entries, or giving a local header
/// another name than its central-directory record shows each kind of reader different files,
/// and only one of them is the signed package.
///
/// So the layout must be canonical, with every byte belonging to exactly one record:
/// - the entries tile the file from byte 0 in offset order: local header, data, and the data
///   descriptor when the entry's flags announce one;
/// - the central directory follows the last entry, and the end record follows the directory;
/// - the end record's comment runs exactly to the end of the file and holds no record signature;
/// - each local header repeats its central-directory record: name, flags, method, and CRC-32 and
///   sizes (each may be zero instead when a data descriptor carries them, which must then agree);
/// - extra fields are well formed, and a Unicode Path field (0x7075) names the entry as its
///   header does;
/// - ZIP64 (``Zip64``) is read as its writers use it — an extra field holding the 64-bit values
///   of exactly the header fields that hold the sentinel, and a ZIP64 end record with its
///   locator between the directory and the end record — and every value is compared by what it
///   says, not by its width: a local header's ZIP64 sizes with the directory's 32-bit ones, the
///   end record's counts with the ZIP64 end record's;
/// - no header asks for a feature this reader does not implement (``ZipFeatures``): a version
///   needed to extract above 4.5, or a flag bit other than 0–3 and 11.
///
/// A data descriptor is read with or without its optional signature, as real writers (Java's
/// `ZipOutputStream`, Go's `archive/zip`) emit it.
struct ZipLayout {
    /// One central-directory record; ``dataRange`` is set once its local header is confirmed.
    struct Entry {
        /// Where the name lies in the archive's bytes.
        var nameRange: Range<Int>
        var flags: UInt16
        var method: UInt16
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
        /// Where the (compressed) data lies in the archive's bytes.
        var dataRange: Range<Int> = 0..<0

        /// Whether the local header carries a ZIP64 extra field, so that a data descriptor holds
        /// 64-bit sizes.
        var localZip64 = false

        /// General-purpose flag bit 3: CRC-32 and sizes follow the data in a descriptor.
        var hasDataDescriptor: Bool { flags & 0x0008 != 0 }
    }

    /// The entries in central-directory order (the order libzip numbers them in).
    let entries: [Entry]

    private static let localHeaderSignature: UInt32 = 0x0403_4B50
    private static let centralHeaderSignature: UInt32 = 0x0201_4B50
    private static let endRecordSignature: UInt32 = 0x0605_4B50
    static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    static let zip64EndRecordSignature: UInt32 = 0x0606_4B50
    private static let dataDescriptorSignature: UInt32 = 0x0807_4B50
    private static let endRecordSize = 22
    private static let centralHeaderSize = 46
    private static let localHeaderSize = 30

    /// Checks the layout of `bytes`.
    ///
    /// - Throws: ``ArchiveRejection`` with one problem: `archive.notZip` when there is no end
    ///   record (and the file does not start like a zip), `archive.tooManyEntries` when the end
    ///   record counts more than `maximumEntryCount`, and `archive.corrupt` naming the entry (when
    ///   one is concerned) for everything else.
    init(validating bytes: UnsafeRawBufferPointer, maximumEntryCount: Int) throws(ArchiveRejection) {
        let reader = LittleEndianReader(bytes)
        let endRecord = try Self.endRecord(reader)
        let totalEntries = endRecord.entryCount
        guard totalEntries <= maximumEntryCount else {
            throw ArchiveRejection([.tooManyEntries(count: totalEntries, limit: maximumEntryCount)])
        }
        // The directory ends where the ZIP64 end record begins, or else the end record.
        let end = endRecord.directoryEnd
        let directoryOffset = endRecord.directoryOffset
        let directorySize = endRecord.directorySize
        guard directoryOffset <= end, directorySize <= end, directoryOffset + directorySize == end else {
            if directoryOffset <= end, directorySize <= end, directoryOffset + directorySize < end {
                throw Self.corrupt(
                    nil,
                    "the central directory does not end where its end record begins: \(end - directoryOffset - directorySize) "
                        + "bytes belong to no record (another archive or data was inserted or appended)")
            }
            throw Self.corrupt(nil, "the central directory overlaps its end record")
        }

        let records = try Self.centralDirectory(reader, from: directoryOffset, to: end, count: totalEntries)
        entries = try Self.tile(reader, records, directoryOffset: directoryOffset)
    }

    // MARK: - End record

    /// What the end records say: where the directory is, how large, how many entries, and where
    /// it must end (at the ZIP64 end record when there is one, else at the end record).
    struct EndRecord {
        var entryCount: Int
        var directoryOffset: Int
        var directorySize: Int
        var directoryEnd: Int
    }

    /// The one end record, which must end the file with its comment, read with its ZIP64 end
    /// record and locator when it has them.
    private static func endRecord(_ reader: LittleEndianReader) throws(ArchiveRejection) -> EndRecord {
        let count = reader.count
        // The last end-record signature: no later one may hide in the comment, so scanning back
        // from the end stops at the real record (and at once when there is no comment).
        var position = count - endRecordSize
        while position >= 0, reader.byte(position) != 0x50 || reader.u32(position) != endRecordSignature { position -= 1 }
        guard position >= 0 else {
            if count >= 4, reader.u32(0) == localHeaderSignature {
                throw corrupt(nil, "truncated: the end of central directory record is missing")
            }
            throw ArchiveRejection([.notZip])
        }
        let commentEnd = position + endRecordSize + Int(reader.u16(position + 20))
        guard commentEnd == count else {
            if commentEnd < count {
                let extra = count - commentEnd
                throw corrupt(
                    nil,
                    "\(extra) \(extra == 1 ? "byte follows" : "bytes follow") the end of central directory record "
                        + "(another archive or data was appended)")
            }
            throw corrupt(nil, "truncated: the archive comment runs past the end of the file")
        }
        if let signature = recordSignature(in: reader, position + endRecordSize..<count) {
            throw corrupt(nil, "the archive comment holds a zip record signature at offset \(signature)")
        }
        let disks = (reader.u16(position + 4), reader.u16(position + 6))
        let counts = (reader.u16(position + 8), reader.u16(position + 10))
        let size = reader.u32(position + 12)
        let offset = reader.u32(position + 16)
        let locator = position - Zip64.locatorSize
        guard locator >= 0, reader.u32(locator) == zip64LocatorSignature else {
            if counts.0 == 0xFFFF || counts.1 == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF || disks.0 == 0xFFFF
                || disks.1 == 0xFFFF
            {
                throw corrupt(nil, "the end record defers to a ZIP64 end record, but there is no ZIP64 locator before it")
            }
            guard disks == (0, 0) else { throw corrupt(nil, "multi-disk archives are not supported") }
            guard counts.0 == counts.1 else {
                throw corrupt(nil, "the end record counts \(counts.0) entries on this disk but \(counts.1) in total")
            }
            return EndRecord(
                entryCount: Int(counts.1), directoryOffset: Int(offset), directorySize: Int(size), directoryEnd: position)
        }
        let zip64 = try Zip64.EndRecord(reader, locator: locator)
        if let problem = ZipFeatures.versionProblem(zip64.versionNeeded, in: "ZIP64 end record") {
            throw ArchiveRejection([.unsupportedFeature(entry: nil, reason: problem)])
        }
        // Each field of the end record is the sentinel or the same value as the ZIP64 one.
        let agree =
            (disks.0 == 0xFFFF || disks.0 == 0) && (disks.1 == 0xFFFF || disks.1 == 0)
            && (counts.0 == 0xFFFF || UInt64(counts.0) == zip64.entriesOnDisk)
            && (counts.1 == 0xFFFF || UInt64(counts.1) == zip64.totalEntries)
            && (size == 0xFFFF_FFFF || UInt64(size) == zip64.directorySize)
            && (offset == 0xFFFF_FFFF || UInt64(offset) == zip64.directoryOffset)
        guard agree else { throw corrupt(nil, "the end record and the ZIP64 end record disagree") }
        guard zip64.entriesOnDisk == zip64.totalEntries else {
            throw corrupt(
                nil, "the ZIP64 end record counts \(zip64.entriesOnDisk) entries on this disk but \(zip64.totalEntries) in total")
        }
        // Values past the file's length say nothing true; kept small so that sums cannot overflow.
        let bound = UInt64(count)
        guard zip64.directoryOffset <= bound, zip64.directorySize <= bound else {
            throw corrupt(nil, "the ZIP64 end record places the directory past the end of the file")
        }
        return EndRecord(
            entryCount: Int(min(zip64.totalEntries, UInt64(Int32.max))), directoryOffset: Int(zip64.directoryOffset),
            directorySize: Int(zip64.directorySize), directoryEnd: zip64.position)
    }

    /// The offset of the first `PK` followed by a record type (`01 02`, `03 04`, `05 06`, `06 06`,
    /// `06 07`, `07 08`, …) in `range`.
    private static func recordSignature(in reader: LittleEndianReader, _ range: Range<Int>) -> Int? {
        guard range.count >= 4 else { return nil }
        for position in range.lowerBound...(range.upperBound - 4)
        where reader.byte(position) == 0x50 && reader.byte(position + 1) == 0x4B
            && (1...8).contains(reader.byte(position + 2)) && (1...8).contains(reader.byte(position + 3))
        {
            return position
        }
        return nil
    }

    // MARK: - Central directory

    private static func centralDirectory(
        _ reader: LittleEndianReader, from start: Int, to end: Int, count: Int
    ) throws(ArchiveRejection) -> [Entry] {
        var records: [Entry] = []
        records.reserveCapacity(count)
        var cursor = start
        for index in 0..<count {
            guard cursor + centralHeaderSize <= end, reader.u32(cursor) == centralHeaderSignature else {
                throw corrupt(nil, "central directory record \(index + 1) of \(count) is missing or damaged")
            }
            let nameLength = Int(reader.u16(cursor + 28))
            let extraLength = Int(reader.u16(cursor + 30))
            let commentLength = Int(reader.u16(cursor + 32))
            let nameRange = cursor + centralHeaderSize..<cursor + centralHeaderSize + nameLength
            let recordEnd = nameRange.upperBound + extraLength + commentLength
            guard recordEnd <= end else {
                throw corrupt(nil, "central directory record \(index + 1) runs past the directory's end")
            }
            let name = displayName(reader, nameRange)
            try checkFeatures(
                version: reader.u16(cursor + 6), flags: reader.u16(cursor + 8), method: reader.u16(cursor + 10), entry: name,
                in: "central directory")
            let header = Zip64.Values(
                uncompressedSize: UInt64(reader.u32(cursor + 24)), compressedSize: UInt64(reader.u32(cursor + 20)),
                localHeaderOffset: UInt64(reader.u32(cursor + 42)), disk: UInt64(reader.u16(cursor + 34)))
            let values = try checkExtraField(
                reader, nameRange.upperBound..<nameRange.upperBound + extraLength, nameRange: nameRange, entry: name,
                in: "central directory", header: header, local: false)
            guard values.disk == 0 else { throw corrupt(name, "the entry starts on another disk") }
            // Past the file's length a size or offset cannot be true of these bytes (a larger
            // uncompressed size is for the limits to refuse, by name).
            let bound = UInt64(reader.count)
            guard values.compressedSize <= bound, values.localHeaderOffset <= bound else {
                throw corrupt(name, "the directory places the entry's data past the end of the file")
            }
            let record = Entry(
                nameRange: nameRange, flags: reader.u16(cursor + 8), method: reader.u16(cursor + 10),
                crc32: reader.u32(cursor + 16), compressedSize: Int(values.compressedSize),
                uncompressedSize: Int(min(values.uncompressedSize, UInt64(Int.max))),
                localHeaderOffset: Int(values.localHeaderOffset))
            records.append(record)
            cursor = recordEnd
        }
        guard cursor == end else {
            throw corrupt(nil, "\(end - cursor) bytes of the central directory belong to no record")
        }
        return records
    }

    // MARK: - Entries

    /// Walks the entries in offset order from byte 0, checking that each local header agrees with
    /// its record and that each entry ends where the next begins.
    private static func tile(
        _ reader: LittleEndianReader, _ records: [Entry], directoryOffset: Int
    ) throws(ArchiveRejection) -> [Entry] {
        var entries = records
        var cursor = 0
        for (index, record) in records.enumerated().sorted(by: { $0.element.localHeaderOffset < $1.element.localHeaderOffset }) {
            let name = displayName(reader, record.nameRange)
            let offset = record.localHeaderOffset
            guard offset == cursor else {
                if offset < cursor { throw corrupt(name, "the entry overlaps the entry before it") }
                throw corrupt(name, "\(offset - cursor) bytes before the entry belong to no entry")
            }
            guard offset + localHeaderSize <= directoryOffset, reader.u32(offset) == localHeaderSignature else {
                throw corrupt(name, "the local file header is missing or damaged")
            }
            let flags = reader.u16(offset + 6)
            let method = reader.u16(offset + 8)
            try checkFeatures(version: reader.u16(offset + 4), flags: flags, method: method, entry: name, in: "local file header")
            let nameLength = Int(reader.u16(offset + 26))
            let extraLength = Int(reader.u16(offset + 28))
            let localName = offset + localHeaderSize..<offset + localHeaderSize + nameLength
            let dataStart = localName.upperBound + extraLength
            guard dataStart <= directoryOffset else {
                throw corrupt(name, "the local file header runs into the central directory")
            }
            guard reader.bytesEqual(localName, record.nameRange) else {
                throw corrupt(
                    name,
                    "the local file header names it \(MessageText.quote(displayName(reader, localName))); the central directory disagrees"
                )
            }
            guard flags == record.flags else {
                throw corrupt(
                    name, "the local file header's flags (\(flags)) differ from the central directory's (\(record.flags))")
            }
            guard method == record.method else {
                throw corrupt(
                    name,
                    "the local file header's compression method (\(method)) differs from the central directory's (\(record.method))"
                )
            }
            // Sizes by value: a ZIP64 extra field's 64-bit ones where the header holds the sentinel.
            let header = Zip64.Values(
                uncompressedSize: UInt64(reader.u32(offset + 22)), compressedSize: UInt64(reader.u32(offset + 18)),
                localHeaderOffset: 0, disk: 0)
            let localValues = try checkExtraField(
                reader, localName.upperBound..<dataStart, nameRange: localName, entry: name, in: "local file header",
                header: header, local: true)
            // With a data descriptor, writers leave each of these zero or fill it in (Info-ZIP
            // writing to a pipe knows the uncompressed size only); either way it agrees.
            let deferred = flags & 0x0008 != 0
            let crc = reader.u32(offset + 14)
            let agrees =
                (crc == record.crc32 || deferred && crc == 0)
                && (localValues.compressedSize == UInt64(record.compressedSize) || deferred && localValues.compressedSize == 0)
                && (localValues.uncompressedSize == UInt64(record.uncompressedSize)
                    || deferred && localValues.uncompressedSize == 0)
            guard agrees else {
                throw corrupt(name, "the local file header's CRC-32 or sizes differ from the central directory's")
            }
            entries[index].localZip64 = localValues.fromZip64

            let dataEnd = dataStart + record.compressedSize
            guard dataEnd <= directoryOffset else { throw corrupt(name, "the entry's data runs into the central directory") }
            cursor = dataEnd
            if flags & 0x0008 != 0 {
                cursor = try descriptorEnd(
                    reader, at: dataEnd, record, wide: localValues.fromZip64, limit: directoryOffset, entry: name)
            }
            entries[index].dataRange = dataStart..<dataEnd
        }
        guard cursor == directoryOffset else {
            throw corrupt(
                nil, "\(directoryOffset - cursor) bytes between the last entry and the central directory belong to no entry")
        }
        return entries
    }

    /// Where a data descriptor (CRC-32, compressed and uncompressed size, optionally preceded by
    /// its signature) that agrees with `record` ends. Its sizes are 8 bytes each when the local
    /// header has a ZIP64 extra field (`wide`), as APPNOTE 4.3.9 says, else 4.
    private static func descriptorEnd(
        _ reader: LittleEndianReader, at offset: Int, _ record: Entry, wide: Bool, limit: Int, entry: String
    ) throws(ArchiveRejection) -> Int {
        let length = wide ? 20 : 12
        func agrees(at position: Int) -> Bool {
            guard position + length <= limit, reader.u32(position) == record.crc32 else { return false }
            if wide {
                return reader.u64(position + 4) == UInt64(record.compressedSize)
                    && reader.u64(position + 12) == UInt64(record.uncompressedSize)
            }
            return Int(reader.u32(position + 4)) == record.compressedSize
                && Int(reader.u32(position + 8)) == record.uncompressedSize
        }
        if offset + 4 <= limit, reader.u32(offset) == dataDescriptorSignature, agrees(at: offset + 4) {
            return offset + 4 + length
        }
        if agrees(at: offset) { return offset + length }
        throw corrupt(entry, "the data descriptor is missing or differs from the central directory")
    }

    /// Extra fields must tile their area as (id, size, data) records; a ZIP64 field (at most one)
    /// must hold exactly the values whose header fields are the sentinel (``Zip64/Values``), and
    /// a Unicode Path field must repeat the header's name. Returns the header's values with the
    /// ZIP64 ones in place.
    private static func checkExtraField(
        _ reader: LittleEndianReader, _ range: Range<Int>, nameRange: Range<Int>, entry: String, in place: String,
        header: Zip64.Values, local: Bool
    ) throws(ArchiveRejection) -> Zip64.Values {
        var values = header
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            guard cursor + 4 <= range.upperBound else { throw corrupt(entry, "the \(place)'s extra field is malformed") }
            let id = reader.u16(cursor)
            let size = Int(reader.u16(cursor + 2))
            let data = cursor + 4..<cursor + 4 + size
            guard data.upperBound <= range.upperBound else { throw corrupt(entry, "the \(place)'s extra field is malformed") }
            switch id {
            case 0x0001:
                guard !values.fromZip64 else { throw corrupt(entry, "the \(place) has two ZIP64 extra fields") }
                do {
                    values = try header.reading(zip64: data, in: reader, local: local)
                } catch {
                    throw corrupt(entry, "the \(place)'s ZIP64 extra field \(error.reason)")
                }
            case 0x7075:
                // Info-ZIP Unicode Path: version 1, CRC-32 of the header name, then a UTF-8 name
                // that readers supporting it show instead of the header's.
                // (Shorter than its 5-byte head, it names nothing: checked before the name's range is
                // made — FuzzZipArchive's unicode-path-extra-shorter-than-its-head.)
                guard size >= 5, reader.byte(data.lowerBound) == 1,
                    reader.bytesEqual(data.lowerBound + 5..<data.upperBound, nameRange)
                else {
                    throw corrupt(entry, "the \(place)'s Unicode Path extra field names another file")
                }
            default:
                break
            }
            cursor = data.upperBound
        }
        if !values.fromZip64, let field = header.sentinelField(local: local) {
            throw corrupt(entry, "the \(place)'s \(field) is the ZIP64 sentinel, but there is no ZIP64 extra field")
        }
        return values
    }

    /// The version needed to extract and the flags ask only for what ``ZipFeatures`` implements.
    /// A compression method other than stored and deflate is refused by name later
    /// (`archive.unsupportedCompression`), and is what a higher version announces (bzip2 4.6,
    /// LZMA 6.3), so the version is held to 4.5 for those two methods only.
    private static func checkFeatures(
        version: UInt16, flags: UInt16, method: UInt16, entry: String, in place: String
    ) throws(ArchiveRejection) {
        if let problem = ZipFeatures.flagProblem(flags, in: place) {
            throw ArchiveRejection([.unsupportedFeature(entry: entry, reason: problem)])
        }
        if method == 0 || method == 8, let problem = ZipFeatures.versionProblem(version, in: place) {
            throw ArchiveRejection([.unsupportedFeature(entry: entry, reason: problem)])
        }
    }

    // MARK: - Helpers

    static func corrupt(_ entry: String?, _ reason: String) -> ArchiveRejection {
        ArchiveRejection([.corrupt(entry: entry, reason: reason)])
    }

    /// An entry name for messages: decoded leniently and cut short, since names can be 64 KiB.
    static func displayName(_ reader: LittleEndianReader, _ range: Range<Int>) -> String {
        let clipped = range.lowerBound..<min(range.upperBound, range.lowerBound + 200)
        let text = String(decoding: reader.bytes[clipped], as: UTF8.self)
        return range.count > 200 ? text + "…" : text
    }
}

/// Bounds-trusting little-endian loads from a byte buffer; callers check ranges first.
struct LittleEndianReader {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var count: Int { bytes.count }

    func byte(_ offset: Int) -> UInt8 { bytes[offset] }

    func u16(_ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func u32(_ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    func u64(_ offset: Int) -> UInt64 {
        UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32
    }

    /// Whether two ranges hold the same bytes.
    func bytesEqual(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
        guard first.count == second.count, first.upperBound <= count, second.upperBound <= count else { return false }
        return bytes[first].elementsEqual(bytes[second])
    }
}
