import Foundation
import TestArchiveTable
import Testing

@testable import OrderPackage

/// The report's archive digest is computed when first read; its encoding is written out by hand.
@Suite("Verification reports: the archive digest on demand, the encoding")
struct VerificationReportTests {
    static func verifier() throws -> OrderVerifier {
        OrderVerifier(trustStore: try TestArchiveTable.trustStore(), clock: { TestOrderArchive.now })
    }

    @Test("archiveSHA256 is the SHA-256 of the bytes verified, for copies too; a value set replaces it")
    func digestOnDemand() throws {
        let archive = try TestArchiveTable.data("valid/basic.order")
        let report = try Self.verifier().verify(archive)
        let copy = report
        #expect(report.archiveSHA256 == SHA256Digest.hex(of: archive))
        #expect(report.archiveSHA256.count == 64)
        #expect(copy.archiveSHA256 == report.archiveSHA256)
        var edited = copy
        edited.archiveSHA256 = "abc"
        #expect(edited.archiveSHA256 == "abc")
        #expect(copy.archiveSHA256 == SHA256Digest.hex(of: archive))
        let oversized = VerificationReport(oversizedArchiveOf: 10, limit: 5)
        #expect(oversized.archiveSHA256.isEmpty)
    }

    @Test(
        "a report encodes every field, the digest included, and decodes to the same encoding",
        arguments: ["valid/basic.order", "invalid/order-every-problem.order", "invalid/expired-certificate.order"])
    func encoding(_ file: String) throws {
        let archive = try TestArchiveTable.data(file)
        let report = try Self.verifier().verify(archive)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["archiveSHA256"] as? String == SHA256Digest.hex(of: archive))
        #expect(Set(object.keys).isSuperset(of: ["errors", "warnings", "summary", "archiveSHA256"]))
        #expect((object["signer"] != nil) == (report.signer != nil))
        let decoded = try JSONDecoder().decode(VerificationReport.self, from: encoded)
        #expect(try encoder.encode(decoded) == encoded)
        #expect(decoded.errors == report.errors)
        #expect(decoded.archiveSHA256 == report.archiveSHA256)
    }
}
