import CZlib
import Foundation

/// A zip writer for tests that builds every record by hand, so that any field can disagree with
/// another: local headers that lie about names or sizes, gaps, overlaps, trailing data, data
/// descriptors in each style, extra fields, comments.
///
/// ```swift
/// var zip = RawZip(files: [("order.json", json)])
/// zip.entries[0].local.name = Array("orderx.json".utf8)
/// let bytes = zip.bytes()
/// ```
public struct RawZip {
    /// How an entry's CRC-32 and sizes follow its data (general-purpose flag bit 3).
    public enum DataDescriptor: Sendable {
        case withSignature
        case withoutSignature
    }

    /// Values of the local header that differ from the central directory's, when set.
    public struct LocalOverrides {
        public var name: [UInt8]?
        public var flags: UInt16?
        public var method: UInt16?
        public var crc32: UInt32?
        public var compressedSize: UInt32?
        public var uncompressedSize: UInt32?
        public var signature: UInt32?
        public var versionNeeded: UInt16?
    }

    /// How an entry uses ZIP64 (APPNOTE 4.5.3): which header fields hold the sentinel, with
    /// their 64-bit values in a ZIP64 extra field; each value may be made to lie.
    public struct Zip64 {
        /// The local header's sizes are 0xFFFFFFFF, both given in its extra field (64-bit data
        /// descriptor sizes follow, for a descriptor entry).
        public var local = true
        /// The directory fields set to the sentinel, given in its extra field.
        public var central: Set<Field> = [.uncompressedSize, .compressedSize, .localHeaderOffset]
        /// Replaces the local extra field's (uncompressed, compressed) sizes.
        public var localSizes: (UInt64, UInt64)?
        /// Replaces the directory's ZIP64 extra field's data.
        public var centralData: Data?
        /// A data descriptor with 32-bit sizes although the local header has ZIP64 sizes.
        public var narrowDescriptor = false

        public enum Field: Hashable, Sendable { case uncompressedSize, compressedSize, localHeaderOffset, disk }

        public init() {}
    }

    /// A ZIP64 end record and locator before the end record.
    public struct Zip64End {
        /// The end record's counts, size and offset are the sentinels; else their real values.
        public var sentinels = true
        /// Replaces the ZIP64 end record's total entry count.
        public var totalEntries: UInt64?
        /// Replaces the ZIP64 end record's directory offset.
        public var directoryOffset: UInt64?
        /// Bytes after the ZIP64 end record's 56 (counted in its size, as extensible data).
        public var extensibleData = Data()
        /// Bytes between the ZIP64 end record and the locator (not counted).
        public var gapBeforeLocator = Data()
        /// Version needed to extract, in the ZIP64 end record.
        public var versionNeeded: UInt16 = 45

        public init() {}
    }

    public struct Entry {
        public var name: [UInt8]
        public var contents: Data
        /// 0 stored, 8 deflate; anything else is written as stored data with that method number.
        public var method: UInt16
        public var flags: UInt16 = 0
        public var dataDescriptor: DataDescriptor?
        /// Zero the local header's CRC-32 and sizes when a descriptor carries them.
        public var zeroLocalSizes = true
        public var local = LocalOverrides()
        /// Bytes appended to the compressed data (and counted in the compressed size).
        public var trailingCompressedBytes = Data()
        public var localExtra = Data()
        public var centralExtra = Data()
        /// Bytes written before this entry's local header (not part of any record).
        public var gapBefore = Data()
        /// The central directory points at this entry's local header instead (overlaps).
        public var localHeaderOffsetOverride: Int?
        public var zip64: Zip64?
        /// Version needed to extract, in both headers (20, or 45 with ZIP64, when nil).
        public var versionNeeded: UInt16?

        public init(name: String, contents: Data, method: UInt16 = 8) {
            self.name = Array(name.utf8)
            self.contents = contents
            self.method = method
        }
    }

    public var entries: [Entry]
    public var comment = Data()
    /// Bytes between the last entry and the central directory.
    public var gapBeforeDirectory = Data()
    /// Bytes after the end record (not counted in the comment length).
    public var trailingBytes = Data()
    public var zip64End: Zip64End?

    public init(files: [(String, Data)], method: UInt16 = 8) {
        entries = files.map { Entry(name: $0.0, contents: $0.1, method: method) }
    }

    public init(entries: [Entry]) {
        self.entries = entries
    }

    public func bytes() -> Data {
        var output = Data()
        var directory = Data()
        var offsets: [Int] = []
        for entry in entries {
            output += entry.gapBefore
            offsets.append(output.count)
            let compressed = (entry.method == 8 ? Self.deflate(entry.contents) : entry.contents) + entry.trailingCompressedBytes
            let crc = Self.crc32(entry.contents)
            let flags = entry.flags | (entry.dataDescriptor == nil ? 0 : 0x0008)
            let zeroed = entry.dataDescriptor != nil && entry.zeroLocalSizes
            let localZip64 = entry.zip64?.local == true
            let version = entry.versionNeeded ?? (entry.zip64 == nil ? 20 : 45)
            let sizes = (UInt64(zeroed ? 0 : entry.contents.count), UInt64(zeroed ? 0 : compressed.count))
            var localExtra = entry.localExtra
            if localZip64 {
                let (uncompressed, compressedSize) = entry.zip64?.localSizes ?? sizes
                var data = Data()
                data.append(le64: uncompressed)
                data.append(le64: compressedSize)
                localExtra = Self.extraField(id: 0x0001, data) + localExtra
            }
            var local = Data()
            local.append(le32: entry.local.signature ?? 0x0403_4B50)
            local.append(le16: entry.local.versionNeeded ?? version)
            local.append(le16: entry.local.flags ?? flags)
            local.append(le16: entry.local.method ?? entry.method)
            local.append(le16: 0x5000)  // 10:00
            local.append(le16: 0x5C2F)  // 2026-01-15
            local.append(le32: entry.local.crc32 ?? (zeroed ? 0 : crc))
            local.append(le32: entry.local.compressedSize ?? (localZip64 ? 0xFFFF_FFFF : UInt32(sizes.1)))
            local.append(le32: entry.local.uncompressedSize ?? (localZip64 ? 0xFFFF_FFFF : UInt32(sizes.0)))
            let localName = entry.local.name ?? entry.name
            local.append(le16: UInt16(localName.count))
            local.append(le16: UInt16(localExtra.count))
            local += localName
            local += localExtra
            output += local
            output += compressed
            switch entry.dataDescriptor {
            case .withSignature?:
                output.append(le32: 0x0807_4B50)
                fallthrough
            case .withoutSignature?:
                output.append(le32: crc)
                if localZip64, entry.zip64?.narrowDescriptor != true {
                    output.append(le64: UInt64(compressed.count))
                    output.append(le64: UInt64(entry.contents.count))
                } else {
                    output.append(le32: UInt32(compressed.count))
                    output.append(le32: UInt32(entry.contents.count))
                }
            case nil:
                break
            }

            let offset = UInt32(entry.localHeaderOffsetOverride.map { offsets[$0] } ?? offsets.last ?? 0)
            let central = entry.zip64?.central ?? []
            var centralExtra = entry.centralExtra
            if let zip64 = entry.zip64, !central.isEmpty || zip64.centralData != nil {
                var data = Data()
                if central.contains(.uncompressedSize) { data.append(le64: UInt64(entry.contents.count)) }
                if central.contains(.compressedSize) { data.append(le64: UInt64(compressed.count)) }
                if central.contains(.localHeaderOffset) { data.append(le64: UInt64(offset)) }
                if central.contains(.disk) { data.append(le32: 0) }
                centralExtra = Self.extraField(id: 0x0001, zip64.centralData ?? data) + centralExtra
            }
            directory.append(le32: 0x0201_4B50)
            directory.append(le16: 0x031E)  // made by Unix, version 3.0
            directory.append(le16: version)
            directory.append(le16: flags)
            directory.append(le16: entry.method)
            directory.append(le16: 0x5000)
            directory.append(le16: 0x5C2F)
            directory.append(le32: crc)
            directory.append(le32: central.contains(.compressedSize) ? 0xFFFF_FFFF : UInt32(compressed.count))
            directory.append(le32: central.contains(.uncompressedSize) ? 0xFFFF_FFFF : UInt32(entry.contents.count))
            directory.append(le16: UInt16(entry.name.count))
            directory.append(le16: UInt16(centralExtra.count))
            directory.append(le16: 0)  // comment
            directory.append(le16: central.contains(.disk) ? 0xFFFF : 0)
            directory.append(le16: 0)  // internal attributes
            directory.append(le32: 0o100644 << 16)
            directory.append(le32: central.contains(.localHeaderOffset) ? 0xFFFF_FFFF : offset)
            directory += entry.name
            directory += centralExtra
        }
        output += gapBeforeDirectory
        let directoryOffset = output.count
        output += directory
        if let end = zip64End {
            let recordOffset = output.count
            output.append(le32: 0x0606_4B50)
            output.append(le64: UInt64(44 + end.extensibleData.count))
            output.append(le16: 0x031E)
            output.append(le16: end.versionNeeded)
            output.append(le32: 0)
            output.append(le32: 0)
            output.append(le64: UInt64(entries.count))
            output.append(le64: end.totalEntries ?? UInt64(entries.count))
            output.append(le64: UInt64(directory.count))
            output.append(le64: end.directoryOffset ?? UInt64(directoryOffset))
            output += end.extensibleData
            output += end.gapBeforeLocator
            output.append(le32: 0x0706_4B50)
            output.append(le32: 0)
            output.append(le64: UInt64(recordOffset))
            output.append(le32: 1)
        }
        let sentinels = zip64End?.sentinels == true
        output.append(le32: 0x0605_4B50)
        output.append(le16: 0)
        output.append(le16: 0)
        output.append(le16: sentinels ? 0xFFFF : UInt16(entries.count))
        output.append(le16: sentinels ? 0xFFFF : UInt16(entries.count))
        output.append(le32: sentinels ? 0xFFFF_FFFF : UInt32(directory.count))
        output.append(le32: sentinels ? 0xFFFF_FFFF : UInt32(directoryOffset))
        output.append(le16: UInt16(comment.count))
        output += comment
        output += trailingBytes
        return output
    }

    /// Raw deflate (no zlib header), as zip entries hold it.
    public static func deflate(_ data: Data) -> Data {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { return Data() }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        let produced = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer -> Int in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                _ = CZlib.deflate(&stream, Z_FINISH)
                return outputBuffer.count - Int(stream.avail_out)
            }
        }
        return Data(output.prefix(produced))
    }

    public static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(buffer.count)))
        }
    }

    /// An extra-field record.
    public static func extraField(id: UInt16, _ data: Data) -> Data {
        var field = Data()
        field.append(le16: id)
        field.append(le16: UInt16(data.count))
        return field + data
    }
}

extension Data {
    mutating func append(le16 value: UInt16) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func append(le32 value: UInt32) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func append(le64 value: UInt64) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
