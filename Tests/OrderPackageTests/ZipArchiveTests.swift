import Foundation
import TestArchiveTable
import Testing

@testable import OrderPackage

@Suite("Zip archives: reading with limits, writing")
struct ZipArchiveTests {
    static let date = Date(timeIntervalSince1970: 1_768_471_200)

    static func archive(_ files: [(String, Data)], compression: ZipArchive.CompressionMethod = .deflate) throws -> Data {
        var writer = ZipArchiveWriter(modificationDate: date)
        for (name, contents) in files { writer.add(name, contents: contents, compression: compression) }
        return try writer.finish()
    }

    static func codes(_ data: Data, limits: ArchiveLimits = ArchiveLimits()) -> [VerificationIssue.Code] {
        do {
            _ = try ZipArchive(reading: data, limits: limits)
            return []
        } catch {
            return error.errors.map(\.issueCode)
        }
    }

    @Test(
        "what the writer writes, the reader reads back byte for byte", arguments: [ZipArchive.CompressionMethod.stored, .deflate])
    func roundTrip(_ compression: ZipArchive.CompressionMethod) throws {
        let files = [
            ("order.json", Data("{}".utf8)), ("en.lproj/order.strings", Data("\"a\" = \"b\";".utf8)),
            ("empty.txt", Data()), ("big.bin", Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })),
        ]
        let archive = try ZipArchive(reading: Self.archive(files, compression: compression))
        #expect(archive.names == files.map(\.0))
        for (name, contents) in files { #expect(archive[name] == contents) }
        #expect(archive.entries.allSatisfy { $0.compression == compression })
        #expect(archive["missing"] == nil)
    }

    @Test("unzip reads what the writer writes")
    func interoperates() async throws {
        let data = try Self.archive([("order.json", Data("{\"a\":1}".utf8)), ("images/logo.png", Data([1, 2, 3]))])
        let directory = try TemporaryDirectory.make("zip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.zip")
        try data.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-q", file.path, "-d", directory.appendingPathComponent("out").path]
        try process.run()
        await process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try Data(contentsOf: directory.appendingPathComponent("out/images/logo.png")) == Data([1, 2, 3]))
    }

    @Test("an empty file and arbitrary bytes are not zips")
    func notZip() {
        #expect(Self.codes(Data()) == [.archiveNotZip])
        #expect(Self.codes(Data("PK but not really".utf8)) == [.archiveNotZip])
    }

    @Test("an archive over the size limit is refused before libzip sees it")
    func archiveTooLarge() throws {
        let limits = ArchiveLimits()
        #expect(Self.codes(Data(count: limits.maximumArchiveSize + 1)) == [.archiveTooLarge])
        let small = try Self.archive([("a", Data(count: 100))])
        #expect(Self.codes(small, limits: ArchiveLimits(maximumArchiveSize: small.count - 1)) == [.archiveTooLarge])
        #expect(Self.codes(small, limits: ArchiveLimits(maximumArchiveSize: small.count)).isEmpty)
    }

    @Test("entry, total and count limits are configurable")
    func configurableLimits() throws {
        let data = try Self.archive([("a", Data(count: 1000)), ("b", Data(count: 1000)), ("c", Data(count: 10))])
        #expect(Self.codes(data, limits: ArchiveLimits(maximumEntrySize: 999)) == [.archiveEntryTooLarge, .archiveEntryTooLarge])
        #expect(Self.codes(data, limits: ArchiveLimits(maximumEntrySize: 1000)).isEmpty)
        #expect(Self.codes(data, limits: ArchiveLimits(maximumTotalUncompressedSize: 2009)) == [.archiveTooLarge])
        #expect(Self.codes(data, limits: ArchiveLimits(maximumTotalUncompressedSize: 2010)).isEmpty)
        #expect(Self.codes(data, limits: ArchiveLimits(maximumEntryCount: 2)) == [.archiveTooManyEntries])
        #expect(Self.codes(data, limits: ArchiveLimits(maximumEntryCount: 3)).isEmpty)
    }

    @Test("every unsafe name in the archive is reported, not just the first")
    func unsafeNames() throws {
        let data = try Self.archive([
            ("../a", Data()), ("/b", Data()), ("c\\d", Data()), ("e//f", Data()), ("./g", Data()), (".DS_Store", Data()),
            ("__MACOSX/x", Data()), ("dir/._h", Data()), ("ok.txt", Data()),
        ])
        let rejection = #expect(throws: ArchiveRejection.self) { try ZipArchive(reading: data) }
        #expect(
            rejection?.errors.map(\.issue.path) == ["../a", "/b", "c\\d", "e//f", "./g", ".DS_Store", "__MACOSX/x", "dir/._h"])
        #expect(rejection?.errors.map(\.issueCode).filter { $0 == .archiveMetadataFile }.count == 3)
    }

    @Test(
        "entry-name rules",
        arguments: [
            ("order.json", nil), ("en.lproj/order.strings", nil), ("a/b/c.png", nil), ("dir/", nil), ("..hidden", nil),
            ("", "the name is empty"), ("/etc/passwd", "absolute path"), ("a\\b", "backslash in the name"),
            ("C:/x", "drive-letter path"), ("a/../b", "'..' path segment"), ("a//b", "empty path segment"),
            ("./a", "'.' path segment"), ("a\u{1}b", "control character in the name"),
        ] as [(String, String?)])
    func entryNames(_ name: String, _ reason: String?) {
        #expect(ArchiveEntryName.unsafeReason(name) == reason)
    }

    @Test(
        "metadata names",
        arguments: [
            (".DS_Store", true), ("en.lproj/.DS_Store", true), ("__MACOSX/order.json", true), ("._logo.png", true),
            ("img/._x", true), ("logo.png", false), ("my__MACOSX/x", false), ("a._b", false),
        ])
    func metadata(_ name: String, _ expected: Bool) {
        #expect(ArchiveEntryName.isMetadata(name) == expected)
    }
}

extension ZipArchiveTests {
    @Test("reading only some entries inflates those, and still checks every entry")
    func includedEntriesOnly() throws {
        let data = try Self.archive([
            ("en.lproj/order.strings", Data("\"A\" = \"B\";".utf8)), ("logo.png", Data(count: 1000)),
            ("de.lproj/order.strings", Data("\"A\" = \"C\";".utf8)),
        ])
        let strings = try ZipArchive(reading: data, including: { $0.hasSuffix(".strings") })
        #expect(strings.names == ["en.lproj/order.strings", "de.lproj/order.strings"])
        #expect(strings["logo.png"] == nil && strings["de.lproj/order.strings"] == Data("\"A\" = \"C\";".utf8))
        // A problem in an entry that is not read is still found.
        let unsafe = try Self.archive([("../evil.png", Data(count: 10)), ("en.lproj/order.strings", Data())])
        #expect(throws: ArchiveRejection.self) { try ZipArchive(reading: unsafe, including: { $0.hasSuffix(".strings") }) }
    }
}
