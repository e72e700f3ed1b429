/// ZIP64 (APPNOTE 4.3.14–4.3.15, 4.5.3), read the one way its writers use it, so that an archive
/// means the same to every reader.
///
/// Writers use ZIP64 when they must (a size or offset past 4 GiB, more than 65,535 entries) and
/// some always do: Python's `zipfile` with `force_zip64`, Info-ZIP `zip -fz`, .NET, streaming
/// writers that cannot know a size in advance. An order package never needs it, but it is no
/// reason to refuse one: what matters is that each value is given once, or the same everywhere.
enum Zip64 {
    /// The ZIP64 end of central directory locator: signature, disk of the ZIP64 end record,
    /// its offset, the number of disks.
    static let locatorSize = 20
    /// The ZIP64 end of central directory record without extensible data.
    static let endRecordSize = 56

    /// Why a ZIP64 extra field cannot be read (the caller names the entry and record).
    struct Problem: Error {
        var reason: String
    }

    /// The fields of a header that a ZIP64 extra field may replace, and whether it did.
    struct Values {
        var uncompressedSize: UInt64
        var compressedSize: UInt64
        var localHeaderOffset: UInt64
        var disk: UInt64
        /// Whether a ZIP64 extra field was read.
        var fromZip64 = false

        private static let sentinel32: UInt64 = 0xFFFF_FFFF
        private static let sentinel16: UInt64 = 0xFFFF

        /// The first field holding its sentinel, for a message; nil when none does.
        func sentinelField(local: Bool) -> String? {
            if uncompressedSize == Self.sentinel32 { return "uncompressed size" }
            if compressedSize == Self.sentinel32 { return "compressed size" }
            if !local, localHeaderOffset == Self.sentinel32 { return "local header offset" }
            if !local, disk == Self.sentinel16 { return "disk number" }
            return nil
        }

        /// These values with a ZIP64 extra field's in place of the sentinels.
        ///
        /// In the central directory the field holds, in this order, exactly the 64-bit values of
        /// the fields that hold the sentinel: uncompressed size, compressed size, local header
        /// offset, then the disk number in 4 bytes. In a local header it holds both sizes
        /// whenever it is there (APPNOTE 4.5.3: "MUST include BOTH"); a size whose header field
        /// is not the sentinel must then say the same in both places.
        func reading(zip64 data: Range<Int>, in reader: LittleEndianReader, local: Bool) throws(Problem) -> Values {
            var values = self
            values.fromZip64 = true
            if local {
                guard data.count == 16 else {
                    throw Problem(reason: "holds \(data.count) bytes; in a local header it holds both sizes, 16 bytes")
                }
                let uncompressed = reader.u64(data.lowerBound)
                let compressed = reader.u64(data.lowerBound + 8)
                for (header, value) in [(uncompressedSize, uncompressed), (compressedSize, compressed)]
                where header != Self.sentinel32 && header != value {
                    throw Problem(reason: "says \(value) where the header says \(header)")
                }
                values.uncompressedSize = uncompressed
                values.compressedSize = compressed
                return values
            }
            let wide = [uncompressedSize, compressedSize, localHeaderOffset].filter { $0 == Self.sentinel32 }.count
            let expected = wide * 8 + (disk == Self.sentinel16 ? 4 : 0)
            guard data.count == expected else {
                throw Problem(
                    reason: "holds \(data.count) bytes; the header's sentinels call for \(expected) "
                        + "(one value for each field set to 0xFFFFFFFF or, for the disk, 0xFFFF)")
            }
            var cursor = data.lowerBound
            func next() -> UInt64 {
                defer { cursor += 8 }
                return reader.u64(cursor)
            }
            if uncompressedSize == Self.sentinel32 { values.uncompressedSize = next() }
            if compressedSize == Self.sentinel32 { values.compressedSize = next() }
            if localHeaderOffset == Self.sentinel32 { values.localHeaderOffset = next() }
            if disk == Self.sentinel16 { values.disk = UInt64(reader.u32(cursor)) }
            return values
        }
    }

    /// The ZIP64 end of central directory record, found through its locator, which must lie
    /// right before the end record; the record must lie right before the locator, and the
    /// directory right before the record.
    struct EndRecord {
        /// Where it begins: where the central directory must end.
        let position: Int
        let entriesOnDisk: UInt64
        let totalEntries: UInt64
        let directorySize: UInt64
        let directoryOffset: UInt64
        /// Version needed to extract, as the record states it.
        let versionNeeded: UInt16

        init(_ reader: LittleEndianReader, locator: Int) throws(ArchiveRejection) {
            guard reader.u32(locator + 4) == 0, (0...1).contains(reader.u32(locator + 16)) else {
                throw ZipLayout.corrupt(nil, "multi-disk archives are not supported")
            }
            let offset = reader.u64(locator + 8)
            guard offset <= UInt64(locator), locator - Int(offset) >= Zip64.endRecordSize,
                reader.u32(Int(offset)) == ZipLayout.zip64EndRecordSignature
            else {
                throw ZipLayout.corrupt(nil, "the ZIP64 locator does not point at a ZIP64 end record")
            }
            let start = Int(offset)
            // The size counts what follows the size field; extensible data (a later format's) is
            // not read, so it is refused rather than skipped.
            guard reader.u64(start + 4) == UInt64(Zip64.endRecordSize - 12) else {
                throw ZipLayout.corrupt(nil, "the ZIP64 end record holds extensible data, which is not read")
            }
            guard start + Zip64.endRecordSize == locator else {
                throw ZipLayout.corrupt(
                    nil, "\(locator - start - Zip64.endRecordSize) bytes between the ZIP64 end record and its locator")
            }
            guard reader.u32(start + 16) == 0, reader.u32(start + 20) == 0 else {
                throw ZipLayout.corrupt(nil, "multi-disk archives are not supported")
            }
            position = start
            versionNeeded = reader.u16(start + 14)
            entriesOnDisk = reader.u64(start + 24)
            totalEntries = reader.u64(start + 32)
            directorySize = reader.u64(start + 40)
            directoryOffset = reader.u64(start + 48)
        }
    }
}
