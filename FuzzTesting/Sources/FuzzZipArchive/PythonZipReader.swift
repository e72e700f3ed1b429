/// How CPython 3.11's `zipfile` finds the entries of an archive and where it reads their data,
/// written again from its source (`_EndRecData`, `_EndRecData64`, `_RealGetContents`,
/// `ZipInfo._decodeExtra`, `ZipFile.open`), with its refusals — so that the fuzz target can check
/// that whatever this project accepts, a reader as strict as Python's reads the same entries from
/// the same bytes. Inflating is left out: both readers inflate the same bytes with zlib and check
/// the same CRC-32.
struct PythonZipReader {
    /// An entry as Python would read it: name, method, where its compressed data starts, and the
    /// directory's sizes and CRC-32.
    struct Entry: Equatable {
        var name: [UInt8]
        var method: UInt16
        var dataOffset: Int
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var crc32: UInt32
    }

    /// Why Python would refuse the archive or an entry (`BadZipFile`, `NotImplementedError`).
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    let entries: [Entry]

    init(_ bytes: [UInt8]) throws(Refusal) {
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
        let endSignature: [UInt8] = [0x50, 0x4B, 0x05, 0x06]
        let size = bytes.count
        guard size >= 22 else { throw Refusal(description: "File is not a zip file") }

        // _EndRecData: an end record with no comment in the last 22 bytes, else the last end
        // signature in the last 64 KiB + 22 bytes.
        var end: Int
        if Array(bytes[(size - 22)..<(size - 18)]) == endSignature, bytes[size - 2] == 0, bytes[size - 1] == 0 {
            end = size - 22
        } else {
            let from = max(0, size - (1 << 16) - 22)
            guard let found = Self.lastIndex(of: endSignature, in: bytes, from: from), found + 22 <= size else {
                throw Refusal(description: "File is not a zip file")
            }
            end = found
        }
        var diskEntries = UInt64(u16(end + 8))
        var totalEntries = UInt64(u16(end + 10))
        var directorySize = UInt64(u32(end + 12))
        var directoryOffset = UInt64(u32(end + 16))
        _ = (diskEntries, totalEntries)

        // _EndRecData64: a locator right before the end record, the ZIP64 end record right
        // before the locator.
        var zip64 = false
        if end >= 20, Array(bytes[(end - 20)..<(end - 16)]) == [0x50, 0x4B, 0x06, 0x07] {
            guard u32(end - 16) == 0, u32(end - 4) <= 1 else {
                throw Refusal(description: "zipfiles that span multiple disks are not supported")
            }
            let record = end - 20 - 56
            guard record >= 0, Array(bytes[record..<(record + 4)]) == [0x50, 0x4B, 0x06, 0x06] else {
                throw Refusal(description: "Zip64 directory record not found")
            }
            diskEntries = u64(record + 24)
            totalEntries = u64(record + 32)
            directorySize = u64(record + 40)
            directoryOffset = u64(record + 48)
            zip64 = true
        }

        // _RealGetContents: data before the archive (concat) shifts every offset.
        var concat = Int64(end) - Int64(directorySize) - Int64(directoryOffset)
        if zip64 { concat -= 56 + 20 }
        let start = Int64(directoryOffset) + concat
        guard start >= 0, start + Int64(directorySize) <= Int64(size) else {
            throw Refusal(description: "Bad offset for central directory")
        }
        var entries: [Entry] = []
        var position = Int(start)
        let directoryEnd = Int(start) + Int(directorySize)
        while position < directoryEnd {
            guard position + 46 <= size, Array(bytes[position..<(position + 4)]) == [0x50, 0x4B, 0x01, 0x02] else {
                throw Refusal(description: "Bad magic number for central directory")
            }
            let extractVersion = bytes[position + 6]
            guard extractVersion <= 63 else {
                throw Refusal(description: "zip file version \(Double(extractVersion) / 10)")
            }
            let flags = u16(position + 8)
            let method = u16(position + 10)
            let nameLength = Int(u16(position + 28))
            let extraLength = Int(u16(position + 30))
            let commentLength = Int(u16(position + 32))
            let nameStart = position + 46
            guard nameStart + nameLength + extraLength + commentLength <= size else {
                throw Refusal(description: "Truncated central directory")
            }
            var uncompressed = UInt64(u32(position + 24))
            var compressed = UInt64(u32(position + 20))
            var offset = UInt64(u32(position + 42))
            // _decodeExtra: the ZIP64 field's values for the sentinel fields, in order.
            var extra = nameStart + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = u16(extra)
                let length = Int(u16(extra + 2))
                guard extra + 4 + length <= extraEnd else { throw Refusal(description: "Corrupt extra field") }
                if id == 1 {
                    var field = extra + 4
                    let fieldEnd = field + length
                    for index in 0..<3 {
                        let value = [uncompressed, compressed, offset][index]
                        guard value == 0xFFFF_FFFF else { continue }
                        guard field + 8 <= fieldEnd else { throw Refusal(description: "Corrupt zip64 extra field") }
                        switch index {
                        case 0: uncompressed = u64(field)
                        case 1: compressed = u64(field)
                        default: offset = u64(field)
                        }
                        field += 8
                    }
                }
                extra += 4 + length
            }
            let headerOffset = Int64(offset) + concat
            entries.append(
                try Self.open(
                    bytes, at: headerOffset, name: Array(bytes[nameStart..<(nameStart + nameLength)]), flags: flags,
                    method: method, compressed: compressed, uncompressed: uncompressed, crc: u32(position + 16)))
            position = nameStart + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// ZipFile.open: the local header, its refusals, and where the data begins.
    private static func open(
        _ bytes: [UInt8], at headerOffset: Int64, name: [UInt8], flags: UInt16, method: UInt16, compressed: UInt64,
        uncompressed: UInt64, crc: UInt32
    ) throws(Refusal) -> Entry {
        guard headerOffset >= 0, headerOffset + 30 <= Int64(bytes.count) else {
            throw Refusal(description: "Truncated file header")
        }
        let at = Int(headerOffset)
        guard Array(bytes[at..<(at + 4)]) == [0x50, 0x4B, 0x03, 0x04] else {
            throw Refusal(description: "Bad magic number for file header")
        }
        let nameLength = Int(UInt16(bytes[at + 26]) | UInt16(bytes[at + 27]) << 8)
        let extraLength = Int(UInt16(bytes[at + 28]) | UInt16(bytes[at + 29]) << 8)
        guard at + 30 + nameLength <= bytes.count else { throw Refusal(description: "Truncated file header") }
        if flags & 0x20 != 0 { throw Refusal(description: "compressed patched data (flag bit 5)") }
        if flags & 0x40 != 0 { throw Refusal(description: "strong encryption (flag bit 6)") }
        if flags & 0x01 != 0 { throw Refusal(description: "File is encrypted, password required for extraction") }
        // Python compares the decoded names; comparing the bytes is stricter, never looser.
        guard Array(bytes[(at + 30)..<(at + 30 + nameLength)]) == name else {
            throw Refusal(description: "File name in directory and header differ")
        }
        guard [0, 8, 12, 14].contains(method) else { throw Refusal(description: "That compression method is not supported") }
        return Entry(
            name: name, method: method, dataOffset: at + 30 + nameLength + extraLength, compressedSize: compressed,
            uncompressedSize: uncompressed, crc32: crc)
    }

    private static func lastIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = bytes.count - needle.count
        while index >= start {
            if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle { return index }
            index -= 1
        }
        return nil
    }
}
