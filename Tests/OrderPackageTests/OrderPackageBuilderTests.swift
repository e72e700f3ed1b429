import Foundation
import TestArchiveTable
import Testing
import WalletPrimitives

@testable import OrderPackage

@Suite("Building packages")
struct OrderPackageBuilderTests {
    static let now = Date(timeIntervalSince1970: 1_768_471_200)

    static func builder(_ compression: ZipArchive.CompressionMethod = .deflate) throws -> OrderPackageBuilder {
        let signer = try OrderSigner(
            certificate: TestArchiveTable.data("pki/order.pem"), privateKey: TestArchiveTable.data("pki/order.key"),
            intermediates: [TestArchiveTable.data("pki/wwdr.pem")])
        return OrderPackageBuilder(signer: signer, compression: compression, clock: { now })
    }

    static func temporaryDirectory() throws -> URL {
        try TemporaryDirectory.make("orders-pack")
    }

    @Test("a built package verifies, with every source file listed and metadata left out")
    func buildsValidPackage() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = TestArchiveTable.directory.appendingPathComponent("sources/localized")
        try FileManager.default.removeItem(at: directory)
        try FileManager.default.copyItem(at: source, to: directory)
        try Data("junk".utf8).write(to: directory.appendingPathComponent(".DS_Store"))
        try Data("junk".utf8).write(to: directory.appendingPathComponent("en.lproj/._banner.png"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("__MACOSX"), withIntermediateDirectories: true)
        try Data("junk".utf8).write(to: directory.appendingPathComponent("__MACOSX/x"))
        try Data("stale".utf8).write(to: directory.appendingPathComponent("manifest.json"))

        let package = try Self.builder().build(directory: directory)
        let archive = try ZipArchive(reading: package)
        #expect(
            Set(archive.names) == [
                "order.json", "logo.png", "en.lproj/order.strings", "en.lproj/banner.png", "de.lproj/order.strings",
                "de.lproj/banner.png", "zh-Hans.lproj/order.strings", "zh-Hans.lproj/banner.png", "manifest.json", "signature",
            ])
        let report = OrderVerifier(trustStore: try TestArchiveTable.trustStore()).verify(package)
        #expect(report.isValid, "\(report.errors)")
        #expect(report.signingTime == Self.now)
    }

    @Test(
        "a package checked in memory gets the verdict an upload of its archive gets: valid alike, and each limit on entries refused alike",
        arguments: [
            ("none", ArchiveLimits()), ("entries", ArchiveLimits(maximumEntryCount: 4)),
            ("entry size", ArchiveLimits(maximumEntrySize: 200)), ("total", ArchiveLimits(maximumTotalUncompressedSize: 1_000)),
        ])
    func packageAsUploaded(_ limit: String, _ limits: ArchiveLimits) throws {
        let files = try OrderPackageBuilder.readSources(TestArchiveTable.directory.appendingPathComponent("sources/small"))
        let package = try Self.builder(.stored).package(files: files)
        #expect(package.archive == (try Self.builder(.stored).build(files: files)), "the archive build(files:) makes")
        let verifier = OrderVerifier(trustStore: try TestArchiveTable.trustStore(), limits: limits, clock: { Self.now })
        let inMemory = verifier.verify(package: package)
        let uploaded = verifier.verify(package.archive)
        #expect(inMemory.isValid == (limit == "none"), "\(inMemory.errors)")
        #expect(inMemory.errors.map(\.code) == uploaded.errors.map(\.code))
        #expect(inMemory.archiveSHA256 == uploaded.archiveSHA256)
    }

    @Test("building is reproducible: same sources, key and clock give the same bytes")
    func reproducible() throws {
        let files = try OrderPackageBuilder.readSources(TestArchiveTable.directory.appendingPathComponent("sources/small"))
        #expect(try Self.builder().build(files: files) == Self.builder().build(files: files))
        #expect(try Self.builder(.stored).build(files: files) != Self.builder().build(files: files))
    }

    @Test("unsafe names and empty sources are refused")
    func refusals() throws {
        #expect {
            try Self.builder().build(files: ["../x": Data()])
        } throws: { error in
            if case .unsafeName("../x", _) = error as? OrderPackageBuilderError { true } else { false }
        }
        #expect {
            try Self.builder().build(files: [".DS_Store": Data()])
        } throws: { error in
            if case .noSources = error as? OrderPackageBuilderError { true } else { false }
        }
    }

    @Test(
        "names a reader would refuse as ambiguous are refused by name, before anything is signed",
        arguments: [
            (["logo.png", "LOGO.png"], "LOGO.png"), (["order.json", "Order.json"], "Order.json"),
            (["order.json", "MANIFEST.JSON"], "manifest.json"), (["order.json", "Signature"], "signature"),
            (["ärger.png", "Ärger.png"], "Ärger.png"),
        ])
    func ambiguousNames(_ names: [String], _ other: String) throws {
        let files = Dictionary(uniqueKeysWithValues: names.map { ($0, Data("{}".utf8)) })
        #expect {
            try Self.builder().build(files: files)
        } throws: { error in
            guard case .unsafeName(_, let reason) = error as? OrderPackageBuilderError else { return false }
            return reason.contains(MessageText.quote(other)) && reason.contains("case-insensitive")
        }
        // Each name alone packages, unless it is a spelling of a file the builder writes itself.
        for name in names where !["manifest.json", "signature"].contains(name.lowercased()) {
            _ = try Self.builder().build(files: [name: Data("{}".utf8)])
        }
    }

    @Test("a folder holding a name in NFC and in NFD is refused, not packaged with one of the two")
    func normalizationTwins() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["order.json", "caf\u{E9}.png", "cafe\u{301}.png"] {
            try Data("{}".utf8).write(to: directory.appendingPathComponent(name))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 3)
        #expect {
            try Self.builder().build(directory: directory)
        } throws: { error in
            guard case .unsafeName(_, let reason) = error as? OrderPackageBuilderError else { return false }
            return reason.contains("case-insensitive")
        }
    }

    @Test("symbolic links in the source folder are refused, not followed")
    func symbolicLinks() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{}".utf8).write(to: directory.appendingPathComponent("order.json"))
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("passwd").path, withDestinationPath: "/etc/passwd")
        #expect {
            try Self.builder().build(directory: directory)
        } throws: { error in
            if case .unreadableSource(_, let reason) = error as? OrderPackageBuilderError {
                reason.contains("symbolic")
            } else {
                false
            }
        }
    }
}
