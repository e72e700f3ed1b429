import COpenSSL
import Foundation
import TestArchiveTable
import Testing

@testable import OrderPackage

@Suite("Embedded certificates: the DER fast path and the cache")
struct SignedDataCertificatesTests {
    static func signature(_ file: String) throws -> Data {
        try #require(try ZipArchive(reading: TestArchiveTable.data(file))["signature"])
    }

    static let signedArchives = [
        "valid/basic.order", "valid/key-id.order", "valid/openssl-cms-ski.order", "valid/openssl-cms-noattr.order",
        "valid/openssl-smime.order", "invalid/signature-two-signers.order", "invalid/untrusted-chain.order",
    ]

    @Test("the split yields exactly the certificates OpenSSL finds, and the rest still parses", arguments: signedArchives)
    func splitMatchesOpenSSL(_ file: String) throws {
        let der = try Self.signature(file)
        let split = try #require(SignedDataCertificates.split(der))
        let whole = try CMSContentInfo(der: der)
        let expected = CMS_get1_certs(whole.pointer).map { X509CertificateStack(taking: $0).certificates.map(\.derBytes) } ?? []
        #expect(split.certificates == expected)
        #expect(!split.certificates.isEmpty)
        let structure = try CMSContentInfo(der: split.structure)
        #expect(CMS_get1_certs(structure.pointer) == nil)
        #expect(split.structure.count < der.count)
    }

    @Test("BER indefinite lengths and non-DER input take the whole-parse path")
    func fallback() throws {
        #expect(SignedDataCertificates.split(try Self.signature("valid/openssl-cms-ber-indefinite-length.order")) == nil)
        #expect(SignedDataCertificates.split(Data("xxxx".utf8)) == nil)
        #expect(SignedDataCertificates.split(Data()) == nil)
        #expect(SignedDataCertificates.split(Data([0x30, 0x03, 0x02, 0x01])) == nil)  // truncated
        let report = OrderVerifier(trustStore: try TestArchiveTable.trustStore())
            .verify(try TestArchiveTable.data("valid/openssl-cms-ber-indefinite-length.order"))
        #expect(report.isValid, "\(report.errors)")
    }

    @Test("a signature without certificates is left as it is")
    func noCertificates() throws {
        let stripped = try #require(SignedDataCertificates.split(try Self.signature("valid/basic.order"))).structure
        let split = try #require(SignedDataCertificates.split(stripped))
        #expect(split.structure == stripped)
        #expect(split.certificates.isEmpty)
        // An archive whose signature lacks the signer's certificate is still reported precisely.
        let report = OrderVerifier(trustStore: try TestArchiveTable.trustStore())
            .verify(try TestArchiveTable.data("invalid/signature-without-signer-certificate.order"))
        #expect(
            report.errors.map(\.message) == [
                "the signing certificate does not chain to a trusted root: the signature does not include its signer's certificate"
            ])
    }

    @Test(
        "DER lengths are minimal",
        arguments: [
            (0, [0x30, 0x00]), (127, [0x30, 0x7F]), (128, [0x30, 0x81, 0x80]),
            (300, [0x30, 0x82, 0x01, 0x2C]), (70_000, [0x30, 0x83, 0x01, 0x11, 0x70]),
        ] as [(Int, [UInt8])])
    func lengths(_ count: Int, _ header: [UInt8]) {
        #expect(Array(SignedDataCertificates.encode(0x30, [UInt8](repeating: 0, count: count)).prefix(header.count)) == header)
        #expect(SignedDataCertificates.encode(0x30, [UInt8](repeating: 0, count: count)).count == header.count + count)
    }

    @Test("the verifier parses a merchant's certificates once, and the cache stays bounded")
    func cache() throws {
        let verifier = OrderVerifier(trustStore: try TestArchiveTable.trustStore())
        #expect(verifier.certificateCache.count == 0)
        #expect(verifier.verify(try TestArchiveTable.data("valid/basic.order")).isValid)
        #expect(verifier.certificateCache.count == 2)  // the leaf and the intermediate
        #expect(verifier.verify(try TestArchiveTable.data("valid/full.order")).isValid)
        #expect(verifier.certificateCache.count == 2)  // same signer: nothing new parsed
        #expect(verifier.verify(try TestArchiveTable.data("valid/other-team.order")).isValid)
        #expect(verifier.certificateCache.count == 3)

        let small = X509CertificateCache(capacity: 2)
        let ders = try ["order", "wwdr", "root"].map {
            try #require(try X509Certificate.certificates(pemOrDER: TestArchiveTable.data("pki/\($0).pem")).first).derBytes
        }
        for der in ders { _ = try small.certificate(der: der) }
        #expect(small.count == 1)
        #expect(throws: OpenSSLError.self) { try small.certificate(der: Data("not DER".utf8)) }
    }
}
