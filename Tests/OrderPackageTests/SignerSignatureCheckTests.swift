import Foundation
import TestArchiveTable
import Testing

@testable import OrderPackage

@Suite("The signer's signature without CMS_verify: agrees with it, or leaves the verdict to it")
struct SignerSignatureCheckTests {
    /// What the check concluded, reduced to what can be compared.
    enum Decision: Equatable {
        case verified
        case rejected
        case undecided
    }

    /// The check's decision, after holding it to the reference: verified only where `CMS_verify`
    /// verifies as the same certificate with the same signingTime, rejected only where it does
    /// not verify.
    static func decide(_ signature: Data, manifest: Data, certificates given: [X509Certificate]? = nil) throws -> Decision {
        let layout = try SignedDataLayout(parsing: signature)
        let certificates = try given ?? layout.certificates.map { try X509Certificate(der: $0) }
        let cms = try CMSContentInfo(der: layout.structure)
        var referenceSigner: X509Certificate?
        if cms.signerCount == 1,
            case .verified(let signer) = try cms.verifyDetached(content: manifest, certificates: certificates)
        {
            referenceSigner = signer
        }
        switch SignerSignatureCheck.check(layout, manifest: manifest, certificates: certificates) {
        case .verified(let signer, let signingTime):
            #expect(referenceSigner?.pointer == signer.pointer)
            #expect(signingTime == cms.signingTime)
            return .verified
        case .rejected:
            #expect(referenceSigner == nil)
            return .rejected
        case .undecided:
            return .undecided
        }
    }

    static func archives() throws -> [String] {
        try ["valid", "invalid"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: TestArchiveTable.directory.appendingPathComponent(folder).path)
                .map { "\(folder)/\($0)" }
        }
    }

    /// Valid archives whose signatures the check leaves to `CMS_verify`, and why.
    static let leftToOpenSSL: Set<String> = [
        "valid/openssl-cms-noattr.order"  // no signed attributes
    ]

    @Test("every test archive: the same verdict as CMS_verify; each valid one decided here unless listed")
    func testArchives() throws {
        var decided = 0
        for file in try Self.archives().sorted() where file.hasSuffix(".order") {
            guard let archive = try? ZipArchive(reading: TestArchiveTable.data(file)),
                let signature = archive[Manifest.signatureFileName], let manifest = archive[Manifest.fileName],
                (try? SignedDataLayout(parsing: signature)) != nil,
                (try? CMSContentInfo(der: SignedDataLayout(parsing: signature).structure)) != nil
            else { continue }
            let decision = try Self.decide(signature, manifest: manifest)
            if file.hasPrefix("valid/") {
                #expect(decision == (Self.leftToOpenSSL.contains(file) ? .undecided : .verified), "\(file)")
            }
            if decision != .undecided { decided += 1 }
        }
        #expect(decided >= 19)
    }

    /// The test PKI's order certificate and key, and a manifest with its attributes.
    struct Signer {
        let certificate: X509Certificate
        let key: PrivateKey
        let manifest = Data(#"{"order.json":"00"}"#.utf8)
        let digest: [UInt8]
        let contentType = SignedDataAssembler.attribute(
            SignedAttributes.contentType, BERElement.encode(0x06, ObjectIdentifierName.data.der))
        var messageDigest: [UInt8] {
            SignedDataAssembler.attribute(SignedAttributes.messageDigestType, BERElement.encode(0x04, digest))
        }

        init() throws {
            let pki = TestArchiveTable.directory.appendingPathComponent("pki")
            certificate = try #require(
                try X509Certificate.certificates(pemOrDER: Data(contentsOf: pki.appendingPathComponent("order.pem"))).first)
            key = try PrivateKey(pem: Data(contentsOf: pki.appendingPathComponent("order.key")))
            digest = try #require(MessageDigest.bytes(of: manifest, algorithm: .sha256))
        }

        /// `attributes` signed as given (not as OpenSSL would encode them again), checked both ways.
        func decide(attributes: [UInt8], byKeyIdentifier: Bool = false) throws -> Decision {
            let signature = try #require(
                SignedDataAssembler.signature(
                    attributes: attributes, certificate: certificate, key: key, byKeyIdentifier: byKeyIdentifier))
            return try SignerSignatureCheckTests.decide(signature, manifest: manifest, certificates: [certificate])
        }
    }

    static func signingTime(_ tag: UInt8, _ text: String) -> [UInt8] {
        SignedDataAssembler.attribute(SignedAttributes.signingTimeType, BERElement.encode(tag, Array(text.utf8)))
    }

    @Test("the usual attributes, by issuer and serial number or by key identifier, verify here")
    func usual() throws {
        let signer = try Signer()
        let attributes = SignedDataAssembler.attributes(messageDigest: signer.digest, signingTime: "260101000000Z")
        #expect(try signer.decide(attributes: attributes) == .verified)
        #expect(try signer.decide(attributes: attributes, byKeyIdentifier: true) == .verified)
        #expect(try signer.decide(attributes: signer.contentType + signer.messageDigest) == .verified)
        let generalized = signer.contentType + Self.signingTime(0x18, "20260101000000Z") + signer.messageDigest
        #expect(try signer.decide(attributes: generalized) == .verified)
    }

    @Test("a wrong messageDigest or a wrong signature is rejected here and by CMS_verify")
    func rejected() throws {
        let signer = try Signer()
        var wrong = signer.digest
        wrong[0] ^= 1
        let attributes = SignedDataAssembler.attributes(messageDigest: wrong, signingTime: nil)
        #expect(try signer.decide(attributes: attributes) == .rejected)
        var signature = [UInt8](
            try #require(
                SignedDataAssembler.signature(
                    attributes: signer.contentType + signer.messageDigest, certificate: signer.certificate, key: signer.key,
                    byKeyIdentifier: false)))
        signature[signature.count - 1] ^= 1
        #expect(try Self.decide(Data(signature), manifest: signer.manifest, certificates: [signer.certificate]) == .rejected)
    }

    @Test(
        "encodings OpenSSL writes differently, or rules it enforces, are left to CMS_verify",
        arguments: [
            // A BOOLEAN of 0x01, which OpenSSL encodes again as 0xFF.
            ("an unknown attribute", [0x30, 0x0A, 0x06, 0x03, 0x2A, 0x03, 0x04, 0x31, 0x03, 0x01, 0x01, 0x01]),
            ("signingTime twice", signingTime(0x17, "260101000000Z") + signingTime(0x17, "260101000000Z")),
            ("a signingTime without seconds", signingTime(0x17, "2601010000Z")),
            ("a signingTime on 30 February", signingTime(0x17, "260230000000Z")),
            ("a signingTime with an offset", signingTime(0x17, "260101000000+0100")),
            (
                "sMIMECapabilities of two values",
                [
                    0x30, 0x11, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x0F, 0x31, 0x04, 0x30, 0x00, 0x30,
                    0x00,
                ]
            ),
        ] as [(String, [UInt8])])
    func leftToOpenSSL(_ name: String, _ extra: [UInt8]) throws {
        let signer = try Signer()
        #expect(try signer.decide(attributes: signer.contentType + extra + signer.messageDigest) == .undecided, "\(name)")
    }

    @Test("an indefinite length, or no contentType, is left to CMS_verify")
    func shapes() throws {
        let signer = try Signer()
        #expect(try signer.decide(attributes: signer.messageDigest) == .undecided)
        let indefinite: [UInt8] = [0x30, 0x80] + signer.contentType.dropFirst(2) + [0x00, 0x00]
        #expect(try signer.decide(attributes: indefinite + signer.messageDigest) == .undecided)
    }

    @Test(
        "DER times: the instant OpenSSL reads, or nil",
        arguments: [
            (UInt8(0x17), "491231235959Z", 2_524_607_999.0), (0x17, "500101000000Z", -631_152_000),
            (0x18, "20240229120000Z", 1_709_208_000),
            (0x18, "20230229120000Z", nil), (0x17, "260101240000Z", nil), (0x17, "26010100000aZ", nil),
            (0x18, "2026010100000Z", nil),
        ] as [(UInt8, String, Double?)])
    func times(_ tag: UInt8, _ text: String, _ expected: Double?) {
        #expect(DERTime.date(tag: tag, Array(text.utf8)[...])?.timeIntervalSince1970 == expected)
    }
}
