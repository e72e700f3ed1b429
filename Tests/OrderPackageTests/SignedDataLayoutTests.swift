import COpenSSL
import Foundation
import TestArchiveTable
import Testing

@testable import OrderPackage

@Suite("Signature shape: the documented form only, and the certificates split off for the cache")
struct SignedDataLayoutTests {
    static func signature(_ file: String) throws -> Data {
        try #require(try ZipArchive(reading: TestArchiveTable.data(file))["signature"])
    }

    static let signedArchives = [
        "valid/basic.order", "valid/key-id.order", "valid/openssl-cms-ski.order", "valid/openssl-cms-noattr.order",
        "valid/openssl-smime.order", "valid/openssl-cms-ber-indefinite-length.order", "invalid/untrusted-chain.order",
    ]

    @Test("the split yields exactly the certificates OpenSSL finds, and the rest still parses", arguments: signedArchives)
    func splitMatchesOpenSSL(_ file: String) throws {
        let der = try Self.signature(file)
        let layout = try SignedDataLayout(parsing: der)
        let whole = try CMSContentInfo(der: der)
        let expected = CMS_get1_certs(whole.pointer).map { X509CertificateStack(taking: $0).certificates.map(\.derBytes) } ?? []
        #expect(layout.certificates == expected)
        #expect(!layout.certificates.isEmpty)
        let structure = try CMSContentInfo(der: layout.structure)
        #expect(CMS_get1_certs(structure.pointer) == nil)
        #expect(layout.structure.count < der.count)
    }

    @Test("signer identifiers, digests and signed attributes of each producer are read")
    func facts() throws {
        let basic = try SignedDataLayout(parsing: Self.signature("valid/basic.order"))
        #expect(basic.signerIdentifier == .issuerAndSerialNumber && basic.hasSignedAttributes && basic.digestAlgorithm == .sha256)
        let keyID = try SignedDataLayout(parsing: Self.signature("valid/openssl-cms-ski.order"))
        #expect(keyID.signerIdentifier == .subjectKeyIdentifier)
        let noAttributes = try SignedDataLayout(parsing: Self.signature("valid/openssl-cms-noattr.order"))
        #expect(!noAttributes.hasSignedAttributes)
    }

    @Test("garbage, truncation and hostile nesting are invalidCMS, never a crash")
    func garbage() {
        var deep = [UInt8]()
        for _ in 0..<10_000 { deep += [0x30, 0x80] }
        for bytes in [
            Data(), Data("xxxx".utf8), Data([0x30, 0x03, 0x02, 0x01]), Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]), Data(deep),
        ] {
            #expect(throws: SignatureError.self) { try SignedDataLayout(parsing: bytes) }
        }
    }

    @Test(
        "DER lengths are minimal",
        arguments: [
            (0, [0x30, 0x00]), (127, [0x30, 0x7F]), (128, [0x30, 0x81, 0x80]),
            (300, [0x30, 0x82, 0x01, 0x2C]), (70_000, [0x30, 0x83, 0x01, 0x11, 0x70]),
        ] as [(Int, [UInt8])])
    func lengths(_ count: Int, _ header: [UInt8]) {
        #expect(Array(BERElement.encode(0x30, [UInt8](repeating: 0, count: count)).prefix(header.count)) == header)
        #expect(BERElement.encode(0x30, [UInt8](repeating: 0, count: count)).count == header.count + count)
    }

    // MARK: - Malleability: unsigned fields changed on a genuinely signed archive

    static let signedData = [1, 0]
    static let signer = [1, 0, 4, 0]

    static let md5WithRSA: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x04]
    static let sha1WithRSA: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x05]
    static let sha512WithRSA: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0D]
    static let sha224WithRSA: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0E]
    static let md4WithRSA: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x03]
    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    static let sha256: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]

    /// A signed order whose signature's DER was rewritten by `change`, and then by `finish` as bytes.
    static func archive(
        _ change: (inout DERNode) -> Void = { _ in }, finish: ([UInt8]) -> [UInt8] = { $0 }
    ) throws -> VerificationReport {
        let original = try ZipArchive(reading: TestOrderArchive.make())
        var files = original.entries.map { ($0.name, $0.contents) }
        let index = try #require(files.firstIndex { $0.0 == "signature" })
        var tree = try #require(DERNode([UInt8](files[index].1)))
        change(&tree)
        files[index].1 = Data(finish(tree.encoded))
        return try TestOrderArchive.verifier().verify(RawZip(files: files).bytes())
    }

    @Test("the untouched signature, re-encoded, is valid")
    func untouched() throws {
        #expect(try Self.archive().isValid)
    }

    @Test(
        "signature algorithms other than rsaEncryption and sha256WithRSAEncryption are refused",
        arguments: [md5WithRSA, sha1WithRSA, sha512WithRSA, sha224WithRSA, md4WithRSA])
    func signatureAlgorithm(_ oid: [UInt8]) throws {
        let report = try Self.archive { $0[Self.signer + [4]] = .algorithm(oid) }
        #expect(report.errorCodes == [.signatureUnsupportedAlgorithm])
        #expect(report.errors.first?.path == "signature")
    }

    @Test("both documented spellings of the algorithm, and NULL or absent parameters, are accepted")
    func documentedVariants() throws {
        #expect(try Self.archive { $0[Self.signer + [4]] = .algorithm(Self.rsaEncryption) }.isValid)
        #expect(try Self.archive { $0[Self.signer + [4]] = .algorithm(Self.rsaEncryption, parameters: nil) }.isValid)
        #expect(try Self.archive { $0[Self.signer + [2]] = .algorithm(Self.sha256) }.isValid)
        #expect(
            try Self.archive {
                $0[Self.signer + [2]] = .algorithm(Self.sha256)
                $0[Self.signedData + [1]] = .constructed(tag: 0x31, children: [.algorithm(Self.sha256)])
            }.isValid)
    }

    enum Malleation: String, CaseIterable, CustomTestStringConvertible {
        case trailingBytes, signedDataVersion, signerInfoVersion, digestParameters, signatureParameters
        case unsignedAttributes, revocationLists, extraDigestAlgorithm, longFormLength, nonX509Certificate
        var testDescription: String { rawValue }
    }

    @Test("unsigned fields outside the documented shape are refused as signature.invalidCMS", arguments: Malleation.allCases)
    func malleation(_ change: Malleation) throws {
        let integer = { (value: UInt8) in DERNode.primitive(tag: 0x02, content: [value]) }
        let report: VerificationReport
        switch change {
        case .trailingBytes:
            report = try Self.archive(finish: { $0 + [0x00, 0x00] })
        case .signedDataVersion:
            report = try Self.archive { $0[Self.signedData + [0]] = integer(4) }
        case .signerInfoVersion:
            report = try Self.archive { $0[Self.signer + [0]] = integer(3) }
        case .digestParameters:
            report = try Self.archive {
                $0[Self.signer + [2]] = .algorithm(Self.sha256, parameters: .primitive(tag: 0x04, content: [1, 2, 3]))
            }
        case .signatureParameters:
            report = try Self.archive {
                $0[Self.signer + [4]] = .algorithm(Self.rsaEncryption, parameters: .primitive(tag: 0x02, content: [7]))
            }
        case .unsignedAttributes:
            report = try Self.archive {
                var children = $0[Self.signer].children
                children.append(
                    .constructed(
                        tag: 0xA1,
                        children: [
                            .constructed(
                                tag: 0x30,
                                children: [
                                    .primitive(tag: 0x06, content: [0x2A, 0x03]),
                                    .constructed(tag: 0x31, children: [.primitive(tag: 0x04, content: Array("hi".utf8))]),
                                ])
                        ]))
                $0[Self.signer].children = children
            }
        case .revocationLists:
            report = try Self.archive {
                var children = $0[Self.signedData].children
                children.insert(.constructed(tag: 0xA1, children: []), at: 4)
                $0[Self.signedData].children = children
            }
        case .extraDigestAlgorithm:
            report = try Self.archive {
                $0[Self.signedData + [1]] = .constructed(
                    tag: 0x31, children: [.algorithm(Self.sha256, parameters: nil), .algorithm([0x2B, 0x0E, 0x03, 0x02, 0x1A])])
            }
        case .longFormLength:
            // The SignerInfo version as 02 81 01 01: valid BER, not DER.
            report = try Self.archive { $0[Self.signer + [0]] = .raw([0x02, 0x81, 0x01, 0x01]) }
        case .nonX509Certificate:
            report = try Self.archive {
                var certificates = $0[Self.signedData + [3]].children
                certificates.append(.constructed(tag: 0xA1, children: []))
                $0[Self.signedData + [3]].children = certificates
            }
        }
        #expect(report.errorCodes == [.signatureInvalidCMS], "\(report.errors)")
    }
}
