import Foundation
import TestArchiveTable
import Testing

@testable import OrderPackage

/// Archives that different readers would read differently. Each starts from a signed, valid
/// order laid out again by hand (``RawZip``), so that the only thing wrong is the layout.
@Suite("Zip layout: every reader sees the same files")
struct ZipLayoutTests {
    /// The files of a signed order, in archive order.
    static let files: [(String, Data)] = {
        guard let data = try? TestOrderArchive.make(), let archive = try? ZipArchive(reading: data) else { return [] }
        return archive.entries.map { ($0.name, $0.contents) }
    }()

    static func report(_ data: Data) throws -> VerificationReport {
        try TestOrderArchive.verifier().verify(data)
    }

    /// The codes and paths of the errors.
    static func errors(_ zip: RawZip) throws -> [String] {
        try report(zip.bytes()).errors.map { "\($0.code.rawValue)@\($0.path ?? "-")" }
    }

    static func tampered() -> RawZip {
        var zip = RawZip(files: files)
        if let index = zip.entries.firstIndex(where: { $0.name == Array("order.json".utf8) }) {
            zip.entries[index].contents = Data(
                String(decoding: zip.entries[index].contents, as: UTF8.self)
                    .replacingOccurrences(of: "ORDER-1", with: "ORDER-X").utf8)
        }
        return zip
    }

    @Test(
        "a canonical archive is valid: stored or deflated, with or without data descriptors",
        arguments: [UInt16(0), 8], [RawZip.DataDescriptor?.none, .withSignature, .withoutSignature])
    func canonical(method: UInt16, descriptor: RawZip.DataDescriptor?) throws {
        #expect(Self.files.count == 5)
        var zip = RawZip(files: Self.files, method: method)
        for index in zip.entries.indices { zip.entries[index].dataDescriptor = descriptor }
        let report = try Self.report(zip.bytes())
        #expect(report.isValid, "\(report.errors)")
    }

    @Test("a data-descriptor entry whose local header carries the real values (as Info-ZIP writes to a pipe) is valid")
    func descriptorWithFilledLocalHeader() throws {
        var zip = RawZip(files: Self.files)
        for index in zip.entries.indices {
            zip.entries[index].dataDescriptor = .withoutSignature
            zip.entries[index].zeroLocalSizes = false
        }
        zip.entries[0].local.crc32 = 0
        #expect(try Self.report(zip.bytes()).isValid)
    }

    @Test("a valid archive followed by a tampered one is rejected; so is one hidden in the comment")
    func appendedArchive() throws {
        let valid = RawZip(files: Self.files).bytes()
        let appended = valid + Self.tampered().bytes()
        #expect(try Self.report(appended).errorCodes == [.archiveCorrupt])

        var hiding = RawZip(files: Self.files)
        hiding.comment = Self.tampered().bytes()
        #expect(try Self.report(hiding.bytes()).errorCodes == [.archiveCorrupt])
        // A comment holding only a record signature, without a whole archive, is refused as such.
        var signature = RawZip(files: Self.files)
        signature.comment = Data("see PK\u{03}\u{04}".utf8)
        let report = try Self.report(signature.bytes())
        #expect(report.errorCodes == [.archiveCorrupt])
        #expect(report.errors.first?.message.contains("comment holds a zip record signature") == true)
    }

    @Test("bytes after the end record, or a second end record, are rejected")
    func trailingBytes() throws {
        var zip = RawZip(files: Self.files)
        zip.trailingBytes = Data("trailing".utf8)
        let trailing = try Self.report(zip.bytes())
        #expect(trailing.errorCodes == [.archiveCorrupt])
        #expect(trailing.errors.first?.message.contains("8 bytes follow the end of central directory record") == true)

        let valid = RawZip(files: Self.files).bytes()
        let twoEndRecords = valid + valid.suffix(22)
        #expect(try Self.report(twoEndRecords).errorCodes == [.archiveCorrupt])
        // A comment that merely mentions "PK" without a record type is fine.
        var commented = RawZip(files: Self.files)
        commented.comment = Data("PKG v1".utf8)
        #expect(try Self.report(commented.bytes()).isValid)
    }

    @Test("bytes between entries, or between the last entry and the directory, are rejected")
    func gaps() throws {
        var between = RawZip(files: Self.files)
        between.entries[2].gapBefore = Data(count: 16)
        let name = String(decoding: between.entries[2].name, as: UTF8.self)
        #expect(try Self.errors(between) == ["archive.corrupt@\(name)"])

        var beforeDirectory = RawZip(files: Self.files)
        beforeDirectory.gapBeforeDirectory = Self.tampered().bytes()
        #expect(try Self.errors(beforeDirectory) == ["archive.corrupt@-"])

        var beforeFirst = RawZip(files: Self.files)
        beforeFirst.entries[0].gapBefore = Data("#!/bin/sh\n".utf8)
        #expect(try Self.report(beforeFirst.bytes()).errorCodes == [.archiveCorrupt])
    }

    @Test("two directory records pointing at one local header are rejected")
    func overlappingEntries() throws {
        var zip = RawZip(files: Self.files)
        zip.entries.append(RawZip.Entry(name: "copy.png", contents: zip.entries[0].contents))
        zip.entries[zip.entries.count - 1].localHeaderOffsetOverride = 0
        let report = try Self.report(zip.bytes())
        #expect(report.errorCodes == [.archiveCorrupt])
    }

    enum LocalLie: String, CaseIterable, CustomTestStringConvertible {
        case name, flags, method, crc, compressedSize, uncompressedSize, signature
        var testDescription: String { rawValue }
    }

    @Test("a local header that disagrees with the central directory is rejected, naming the entry", arguments: LocalLie.allCases)
    func localHeaderDisagrees(_ lie: LocalLie) throws {
        var zip = RawZip(files: Self.files)
        guard let index = zip.entries.firstIndex(where: { $0.name == Array("signature".utf8) }) else {
            Issue.record("no signature entry")
            return
        }
        switch lie {
        case .name: zip.entries[index].local.name = Array("sicnature".utf8)
        case .flags: zip.entries[index].local.flags = 0x0800
        case .method: zip.entries[index].local.method = 0
        case .crc: zip.entries[index].local.crc32 = 0xDEAD_BEEF
        case .compressedSize: zip.entries[index].local.compressedSize = 1
        case .uncompressedSize: zip.entries[index].local.uncompressedSize = 1
        case .signature: zip.entries[index].local.signature = 0x0403_4B51
        }
        #expect(try Self.errors(zip) == ["archive.corrupt@signature"])
    }

    @Test("a deflate stream that ends before a data-descriptor entry's compressed size is rejected")
    func deflateEndsEarly() throws {
        var zip = RawZip(files: Self.files)
        for index in zip.entries.indices { zip.entries[index].dataDescriptor = .withSignature }
        zip.entries[0].trailingCompressedBytes = RawZip(files: [("order.json", Data("{}".utf8))]).bytes()
        let name = String(decoding: zip.entries[0].name, as: UTF8.self)
        #expect(try Self.errors(zip) == ["archive.corrupt@\(name)"])
    }

    @Test("a data descriptor that is missing or disagrees is rejected")
    func badDescriptor() throws {
        var zip = RawZip(files: Self.files)
        zip.entries[1].dataDescriptor = .withSignature
        var bytes = zip.bytes()
        // The descriptor of entry 1 follows its data; corrupt its CRC.
        let descriptor = try #require(bytes.range(of: Data([0x50, 0x4B, 0x07, 0x08])))
        bytes[descriptor.upperBound] ^= 0xFF
        let name = String(decoding: zip.entries[1].name, as: UTF8.self)
        #expect(try Self.report(bytes).errors.map { "\($0.code.rawValue)@\($0.path ?? "-")" } == ["archive.corrupt@\(name)"])
    }

    @Test("a Unicode Path extra field naming another file is rejected; one repeating the name is fine")
    func unicodePath() throws {
        func unicodePath(_ name: String) -> Data {
            RawZip.extraField(id: 0x7075, Data([1]) + Data(count: 4) + Data(name.utf8))
        }
        var other = RawZip(files: Self.files)
        other.entries[0].centralExtra = unicodePath("evil.png")
        #expect(try Self.report(other.bytes()).errorCodes == [.archiveCorrupt])

        var same = RawZip(files: Self.files)
        let name = String(decoding: same.entries[0].name, as: UTF8.self)
        same.entries[0].localExtra = unicodePath(name)
        same.entries[0].centralExtra = unicodePath(name)
        #expect(try Self.report(same.bytes()).isValid)

        var malformed = RawZip(files: Self.files)
        malformed.entries[0].localExtra = Data([0x55, 0x54, 0x09])
        #expect(try Self.report(malformed.bytes()).errorCodes == [.archiveCorrupt])
    }

    /// FuzzZipArchive's finding (FuzzTesting/Regressions/FuzzZipArchive/
    /// unicode-path-extra-shorter-than-its-head): a Unicode Path extra field shorter than its own
    /// 5-byte head made the reader build a range backwards and trap — a crash on any archive
    /// uploaded. It is `archive.corrupt` now, from the fuzzer's input and by hand at each length.
    @Test("a Unicode Path extra field shorter than its head is corrupt, not a crash")
    func shortUnicodePath() throws {
        let found = try Data(
            contentsOf: TestArchiveTable.packageRoot.appendingPathComponent(
                "FuzzTesting/Regressions/FuzzZipArchive/unicode-path-extra-shorter-than-its-head"))
        #expect(throws: ArchiveRejection.self) { try ZipArchive(reading: found) }
        for length in 0..<5 {
            var zip = RawZip(files: Self.files)
            zip.entries[0].centralExtra = RawZip.extraField(id: 0x7075, Data([1, 0, 0, 0, 0].prefix(length)))
            #expect(try Self.report(zip.bytes()).errorCodes == [.archiveCorrupt], "length \(length)")
        }
    }

    /// The signed order with every entry in ZIP64 and a ZIP64 end record.
    static func zip64(descriptor: RawZip.DataDescriptor? = nil) -> RawZip {
        var zip = RawZip(files: files)
        for index in zip.entries.indices {
            zip.entries[index].zip64 = RawZip.Zip64()
            zip.entries[index].dataDescriptor = descriptor
        }
        zip.zip64End = RawZip.Zip64End()
        return zip
    }

    @Test(
        "ZIP64 as writers use it is read by value: extra fields, 64-bit data descriptors, the ZIP64 end record",
        arguments: [RawZip.DataDescriptor?.none, .withSignature, .withoutSignature])
    func zip64Consistent(descriptor: RawZip.DataDescriptor?) throws {
        let report = try Self.report(Self.zip64(descriptor: descriptor).bytes())
        #expect(report.isValid, "\(report.errors)")
        // Only the local headers (Python's force_zip64), or only the directory's sizes and the
        // end record's offset (Info-ZIP's -fz): each value said once, or the same twice.
        var local = RawZip(files: Self.files)
        for index in local.entries.indices {
            local.entries[index].zip64 = RawZip.Zip64()
            local.entries[index].zip64?.central = []
        }
        #expect(try Self.report(local.bytes()).isValid)
        var central = Self.zip64()
        for index in central.entries.indices { central.entries[index].zip64?.central = [.uncompressedSize] }
        central.zip64End?.sentinels = false
        #expect(try Self.report(central.bytes()).isValid)
    }

    /// Each way the same value can be said twice, differently.
    enum Zip64Lie: String, CaseIterable, CustomTestStringConvertible {
        case localSizes, centralExtraLength, sentinelWithoutExtra, twoExtraFields, localExtraLength, endRecordCount,
            endRecordOffset, sentinelWithoutLocator, extensibleData, gapBeforeLocator, descriptorSize, directoryDisk
        var testDescription: String { rawValue }
    }

    @Test(
        "ZIP64 values that disagree, or say more or less than the sentinels call for, are refused", arguments: Zip64Lie.allCases)
    func zip64Inconsistent(_ lie: Zip64Lie) throws {
        var zip = Self.zip64()
        switch lie {
        case .localSizes:
            let size = UInt64(zip.entries[1].contents.count)
            zip.entries[1].zip64?.localSizes = (size + 1, 0)
        case .centralExtraLength:
            zip.entries[1].zip64?.centralData = Data(count: 32)
        case .sentinelWithoutExtra:
            zip.entries[1].zip64?.centralData = nil
            zip.entries[1].zip64?.central = []
            zip.entries[1].centralExtra = Data()
            zip.entries[1].zip64?.local = false
            zip.entries[1].local.uncompressedSize = 0xFFFF_FFFF
        case .twoExtraFields:
            zip.entries[1].centralExtra = RawZip.extraField(id: 0x0001, Data(count: 24))
        case .localExtraLength:
            zip.entries[1].zip64?.local = false
            zip.entries[1].localExtra = RawZip.extraField(id: 0x0001, Data(count: 8))
        case .endRecordCount:
            zip.zip64End?.sentinels = false
            zip.zip64End?.totalEntries = 4
        case .endRecordOffset:
            zip.zip64End?.directoryOffset = 12
        case .sentinelWithoutLocator:
            zip.zip64End = nil
            var bytes = zip.bytes()
            bytes.replaceSubrange(bytes.count - 6..<bytes.count - 2, with: [0xFF, 0xFF, 0xFF, 0xFF])
            #expect(try Self.report(bytes).errorCodes == [.archiveCorrupt])
            return
        case .extensibleData:
            zip.zip64End?.extensibleData = Data(count: 8)
        case .gapBeforeLocator:
            zip.zip64End?.gapBeforeLocator = Data(count: 4)
        case .descriptorSize:
            zip.entries[1].dataDescriptor = .withSignature
            zip.entries[1].zip64?.narrowDescriptor = true
        case .directoryDisk:
            zip.entries[1].zip64?.central = [.disk]
            zip.entries[1].zip64?.centralData = Data([1, 0, 0, 0])
        }
        let report = try Self.report(zip.bytes())
        #expect(report.errorCodes == [.archiveCorrupt], "\(report.errors)")
    }

    @Test("an entry whose ZIP64 size says 1 GiB is archive.entryTooLarge, named, before anything is inflated")
    func zip64EntryTooLarge() throws {
        var zip = Self.zip64()
        let index = try #require(zip.entries.firstIndex { $0.name == Array("order.json".utf8) })
        let compressed = UInt64(RawZip.deflate(zip.entries[index].contents).count)
        zip.entries[index].zip64?.localSizes = (1 << 30, compressed)
        var central = Data()
        central.append(contentsOf: withUnsafeBytes(of: UInt64(1 << 30).littleEndian, Array.init))
        central.append(contentsOf: withUnsafeBytes(of: compressed.littleEndian, Array.init))
        zip.entries[index].zip64?.central = [.uncompressedSize, .compressedSize]
        zip.entries[index].zip64?.centralData = central
        let report = try Self.report(zip.bytes())
        #expect(report.errorCodes == [.archiveEntryTooLarge], "\(report.errors)")
        #expect(report.errors.first?.path == "order.json")
    }

    @Test(
        "a version needed to extract above 4.5 is archive.unsupportedFeature, in the directory or a local header",
        arguments: [(UInt16(46), true, true), (148, true, true), (46, true, false), (46, false, true), (0xFF2E, true, true)])
    func versionNeeded(version: UInt16, central: Bool, local: Bool) throws {
        var zip = RawZip(files: Self.files)
        let index = try Self.signatureIndex(in: zip)
        if central { zip.entries[index].versionNeeded = version }
        if local { zip.entries[index].local.versionNeeded = version } else { zip.entries[index].local.versionNeeded = 20 }
        try Self.expectUnsupportedFeature(zip, saying: "needs version")
    }

    /// The `signature` entry of a raw zip.
    static func signatureIndex(in zip: RawZip) throws -> Int {
        try #require(zip.entries.firstIndex { $0.name == Array("signature".utf8) })
    }

    /// `zip` is refused as an unsupported feature of the `signature` entry, with a message saying this.
    static func expectUnsupportedFeature(_ zip: RawZip, saying text: String) throws {
        let report = try report(zip.bytes())
        #expect(report.errorCodes == [.archiveUnsupportedFeature], "\(report.errors)")
        #expect(report.errors.first?.path == "signature")
        #expect(report.errors.first?.message.contains(text) == true, "\(report.errors)")
    }

    @Test("versions up to 4.5, and the high byte whatever it holds, are read; bzip2's 4.6 is its method's refusal")
    func versionsRead() throws {
        for version: UInt16 in [10, 20, 45, 0x0314, 0xFF2D] {
            var zip = RawZip(files: Self.files)
            for index in zip.entries.indices { zip.entries[index].versionNeeded = version }
            #expect(try Self.report(zip.bytes()).isValid, "version \(version)")
        }
        var bzip2 = RawZip(files: Self.files)
        bzip2.entries[0].method = 12
        bzip2.entries[0].versionNeeded = 46
        #expect(try Self.report(bzip2.bytes()).errorCodes == [.archiveUnsupportedCompression])
    }

    @Test(
        "a general-purpose flag bit this reader does not implement, or that the format reserves, is refused",
        arguments: [4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15])
    func unsupportedFlag(bit: Int) throws {
        var zip = RawZip(files: Self.files)
        zip.entries[try Self.signatureIndex(in: zip)].flags = UInt16(1) << UInt16(bit)
        try Self.expectUnsupportedFeature(zip, saying: "bit \(bit) (")
    }

    @Test("the flag bits writers set are read: deflate options (1, 2), data descriptor (3), UTF-8 names (11)")
    func understoodFlags() throws {
        for flags: UInt16 in [0x0002, 0x0004, 0x0006, 0x0800, 0x0806] {
            var zip = RawZip(files: Self.files)
            for index in zip.entries.indices { zip.entries[index].flags = flags }
            #expect(try Self.report(zip.bytes()).isValid, "flags \(flags)")
        }
        var descriptors = RawZip(files: Self.files)
        for index in descriptors.entries.indices {
            descriptors.entries[index].flags = 0x0800
            descriptors.entries[index].dataDescriptor = .withSignature
        }
        #expect(try Self.report(descriptors.bytes()).isValid)
    }

    @Test("a ZIP64 end record that needs version 4.6 is refused")
    func zip64EndRecordVersion() throws {
        var zip = Self.zip64()
        zip.zip64End?.versionNeeded = 46
        let report = try Self.report(zip.bytes())
        #expect(report.errorCodes == [.archiveUnsupportedFeature], "\(report.errors)")
        #expect(report.errors.first?.message.contains("ZIP64 end record needs version 4.6") == true)
    }

    @Test("a too-large entry count in the end record is refused before the directory is read")
    func entryCount() throws {
        var bytes = RawZip(files: Self.files).bytes()
        // Both entry counts of the end record (this disk, total) become 511.
        for offset in [14, 12] {
            bytes[bytes.count - offset] = 0xFF
            bytes[bytes.count - offset + 1] = 0x01
        }
        #expect(try Self.report(bytes).errorCodes == [.archiveTooManyEntries])
    }
}
