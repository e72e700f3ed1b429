import Foundation
import Testing

@testable import OrderPackage

@Suite("manifest.json")
struct ManifestTests {
    static let orderJSON = Data("{}".utf8)
    static let logo = Data([1, 2, 3])

    static func archive(_ files: [(String, Data)]) throws -> ZipArchive {
        var writer = ZipArchiveWriter(modificationDate: Date(timeIntervalSince1970: 0))
        for (name, contents) in files { writer.add(name, contents: contents) }
        return try ZipArchive(reading: writer.finish())
    }

    @Test("keys are JSON-decoded (escaped slashes), hex is compared case-insensitively")
    func decoding() throws {
        let hash = SHA256Digest.hex(of: Self.logo)
        let manifest = try Manifest(parsing: Data(#"{"images\/logo.png": "\#(hash.uppercased())"}"#.utf8))
        #expect(manifest.entries == [Manifest.Entry(path: "images/logo.png", sha256: hash)])
        let archive = try Self.archive([("images/logo.png", Self.logo), ("manifest.json", Data()), ("signature", Data())])
        #expect(manifest.problems(in: archive).isEmpty)
    }

    @Test("SHA-256 through OpenSSL matches the known vector")
    func digest() {
        #expect(SHA256Digest.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("every disagreement is listed: unlisted, missing, mismatched, reserved, bad values")
    func problems() throws {
        let manifest = try Manifest(
            parsing: Data(
                """
                {"order.json": "\(SHA256Digest.hex(of: Data("other".utf8)))", "gone.png": "\(String(repeating: "a", count: 64))",
                 "signature": "\(String(repeating: "b", count: 64))", "pass.json": "\(String(repeating: "c", count: 40))",
                 "weird.txt": 7}
                """.utf8))
        let archive = try Self.archive([
            ("order.json", Self.orderJSON), ("extra.png", Self.logo), ("weird.txt", Data()), ("pass.json", Data()),
            ("manifest.json", Data()), ("signature", Data()),
        ])
        let found = manifest.problems(in: archive).map { "\($0.code) \($0.path ?? "")" }
        #expect(
            found == [
                "manifest.unsupportedDigest pass.json", "manifest.invalidJSON weird.txt", "manifest.invalidJSON signature",
                "manifest.hashMismatch order.json", "manifest.unlistedFile extra.png", "manifest.missingEntry gone.png",
            ])
    }

    @Test("40 hex digits are named as SHA-1; other strings are not digests")
    func digestMessages() throws {
        let sha1 = ManifestError.unsupportedDigest("a", value: String(repeating: "f", count: 40))
        #expect(sha1.message.contains("SHA-1"))
        let other = ManifestError.unsupportedDigest("a", value: "xyz")
        #expect(!other.message.contains("SHA-1"))
        let notHex = ManifestError.unsupportedDigest("a", value: String(repeating: "z", count: 40))
        #expect(!notHex.message.contains("SHA-1"))
    }

    @Test("not an object, not JSON", arguments: ["[]", "\"x\"", "{", "", "{\"a\": \"b\", \"a\": \"c\"}"])
    func notAnObject(_ text: String) {
        #expect(throws: ManifestError.self) { try Manifest(parsing: Data(text.utf8)) }
    }

    @Test("encode writes what parse reads, sorted, with one entry per file")
    func encode() throws {
        let data = Manifest.encode([("b.png", Self.logo), ("a \"quoted\".json", Self.orderJSON)])
        let manifest = try Manifest(parsing: data)
        #expect(manifest.entries.map(\.path) == ["a \"quoted\".json", "b.png"])
        #expect(manifest.entries.last?.sha256 == SHA256Digest.hex(of: Self.logo))
    }
}
