import Foundation
import TestArchiveTable
import Testing
import WalletPrimitives

@testable import OrderPackage

@Suite("Signing and signature verification")
struct SigningTests {
    static let signingTime = Date(timeIntervalSince1970: 1_768_471_200)  // 2026-01-15T10:00:00Z

    static func pki(_ name: String) throws -> Data {
        try TestArchiveTable.data("pki/\(name)")
    }

    static func signer(_ leaf: String = "order", chain: [String] = ["wwdr"]) throws -> OrderSigner {
        try OrderSigner(
            certificate: pki("\(leaf).pem"), privateKey: pki("\(leaf).key"), intermediates: chain.map { try pki("\($0).pem") })
    }

    static func sources() throws -> [String: Data] {
        try OrderPackageBuilder.readSources(TestArchiveTable.directory.appendingPathComponent("sources/small"))
    }

    static func verifier(_ store: TrustStore? = nil) throws -> OrderVerifier {
        OrderVerifier(
            trustStore: try store ?? TestArchiveTable.trustStore(), clock: { Date(timeIntervalSince1970: 1_790_000_000) })
    }

    @Test(
        "every signer variant verifies",
        arguments: [
            (OrderSigner.SignerIdentifier.issuerAndSerialNumber, true), (.subjectKeyIdentifier, true),
            (.issuerAndSerialNumber, false), (.subjectKeyIdentifier, false),
        ])
    func variants(_ identifier: OrderSigner.SignerIdentifier, _ attributes: Bool) throws {
        var signer = try Self.signer()
        signer.signerIdentifier = identifier
        signer.includesSignedAttributes = attributes
        let package = try OrderPackageBuilder(signer: signer, clock: { Self.signingTime }).build(files: Self.sources())
        let report = try Self.verifier().verify(package)
        #expect(report.isValid, "\(report.errors)")
        #expect(report.signingTime == (attributes ? Self.signingTime : nil))
        #expect(report.teamIdentifier == "ABCDE12345")
    }

    @Test("the signer reports its certificate's order type and team")
    func signerFacts() throws {
        let signer = try Self.signer()
        #expect(signer.orderTypeIdentifier == "order.com.example.shop")
        #expect(signer.teamIdentifier == "ABCDE12345")
        #expect(try Self.signer("pass-type").orderTypeIdentifier == nil)
    }

    @Test("a key that does not belong to the certificate is refused before signing")
    func mismatchedKey() throws {
        #expect(throws: OrderSignerError.keyDoesNotMatchCertificate) {
            try OrderSigner(certificate: Self.pki("order.pem"), privateKey: Self.pki("other-team.key"))
        }
        #expect {
            try OrderSigner(certificate: Data("garbage".utf8), privateKey: Self.pki("order.key"))
        } throws: { error in
            if case .invalidCertificate = error as? OrderSignerError { true } else { false }
        }
        #expect {
            try OrderSigner(certificate: Self.pki("order.pem"), privateKey: Data("garbage".utf8))
        } throws: { error in
            if case .invalidPrivateKey = error as? OrderSignerError { true } else { false }
        }
    }

    @Test("real archives embed the wrong WWDR generation: the bundled intermediates still build the chain")
    func wrongEmbeddedIntermediate() throws {
        // Signed by the order leaf (issued by pki/wwdr) but embedding an unrelated intermediate.
        let signer = try Self.signer(chain: ["untrusted-wwdr"])
        let package = try OrderPackageBuilder(signer: signer, clock: { Self.signingTime }).build(files: Self.sources())
        let root = try Self.pki("root.pem")
        let withoutBundle = try Self.verifier(TrustStore.apple.adding(roots: [root])).verify(package)
        #expect(withoutBundle.errorCodes == [.signatureUntrustedChain])
        let bundled = try TrustStore.apple.adding(roots: [root]).adding(intermediates: [Self.pki("wwdr.pem")])
        let report = try Self.verifier(bundled).verify(package)
        #expect(report.isValid, "\(report.errors)")
        #expect(report.signer?.chain.count == 3)
    }

    @Test("expiry is judged at the requested instant")
    func verificationTime() throws {
        let package = try TestArchiveTable.data("valid/basic.order")
        let verifier = try Self.verifier()
        let before = try #require(RFC3339Timestamp("2024-12-31T23:59:59Z")).date
        let after = try #require(RFC3339Timestamp("2056-01-01T00:00:00Z")).date
        #expect(verifier.verify(package, at: .at(before)).errorCodes == [.signatureCertificateExpired])
        #expect(verifier.verify(package, at: .at(after)).errorCodes == [.signatureCertificateExpired])
        #expect(verifier.verify(package, at: .signingTime).isValid)
        #expect(verifier.verify(package, at: .signingTime).verificationTime == Self.signingTime)
        let frozen = OrderVerifier(trustStore: try TestArchiveTable.trustStore(), clock: { after })
        #expect(frozen.verify(package).errorCodes == [.signatureCertificateExpired])
        #expect(frozen.verify(package).verificationTime == after)
    }

    @Test("an expired leaf still gets the rest of the chain and the policy checked")
    func expiredAndWrongType() throws {
        let signer = try Self.signer("other-type")
        let package = try OrderPackageBuilder(signer: signer, clock: { Self.signingTime }).build(files: Self.sources())
        let later = try #require(RFC3339Timestamp("2060-01-01T00:00:00Z")).date
        let report = try Self.verifier().verify(package, at: .at(later))
        #expect(Set(report.errorCodes) == [.signatureCertificateExpired, .signatureTypeIdentifierMismatch])
    }

    @Test("garbage and truncated signatures never crash: they are invalid CMS")
    func garbageDER() throws {
        let valid = try ZipArchive(reading: TestArchiveTable.data("valid/stored.order"))
        let manifest = try #require(valid["manifest.json"])
        let signature = try #require(valid["signature"])
        let verifier = SignatureVerifier(trustStore: try TestArchiveTable.trustStore())
        var generator = SystemRandomNumberGenerator()
        var inputs: [Data] = [
            Data(), Data([0x30]), Data([0x30, 0x82, 0xFF, 0xFF]), Data([0x30, 0x80] + [UInt8](repeating: 0, count: 8)),
        ]
        inputs += stride(from: 1, to: signature.count, by: 97).map { signature.prefix($0) }
        inputs += (0..<50).map { _ in
            Data((0..<Int.random(in: 1...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        for input in inputs {
            let outcome = verifier.verify(signature: input, manifest: manifest, orderTypeIdentifier: nil, time: .now, now: Date())
            #expect(outcome.errors.first?.issueCode == .signatureInvalidCMS)
        }
    }

    /// FuzzSignature's finding (FuzzTesting/Regressions/FuzzSignature/issuer-string-type-retagged):
    /// basic.order's signature with one byte changed — the signer identifier's issuer
    /// organizationName re-tagged from UTF8String to IA5String — still verifies. Not a defect: the
    /// identifier lies outside what is signed, and names match in canonical form (RFC 5280 §7.1), so
    /// it names the same certificate; what is signed and who signed it are unchanged.
    @Test("a signer identifier whose issuer is re-tagged names the same certificate: the same signer verifies")
    func retaggedIssuerName() throws {
        let sample = try ZipArchive(reading: TestArchiveTable.data("valid/basic.order"))
        let manifest = try #require(sample["manifest.json"])
        let original = try #require(sample["signature"])
        let retagged = try Data(
            contentsOf: TestArchiveTable.packageRoot.appendingPathComponent(
                "FuzzTesting/Regressions/FuzzSignature/issuer-string-type-retagged"))
        #expect(retagged != original && retagged.count == original.count)
        let verifier = SignatureVerifier(trustStore: try TestArchiveTable.trustStore())
        let time = Date(timeIntervalSince1970: 1_790_000_000)
        let expected = verifier.verify(
            signature: original, manifest: manifest, orderTypeIdentifier: nil, time: .signingTime, now: time)
        let outcome = verifier.verify(
            signature: retagged, manifest: manifest, orderTypeIdentifier: nil, time: .signingTime, now: time)
        #expect(expected.errors.isEmpty && expected.signer != nil)
        #expect(outcome.errors.isEmpty)
        #expect(outcome.signer == expected.signer)
        // What is signed still binds: the same bytes over another manifest fail.
        let other = verifier.verify(
            signature: retagged, manifest: manifest + Data(" ".utf8), orderTypeIdentifier: nil, time: .signingTime, now: time)
        #expect(!other.errors.isEmpty)
    }
}
