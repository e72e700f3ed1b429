import Foundation
import Testing

@testable import OrderPackage

/// The leaf's issuer exists twice: the test WWDR CA, and a second certificate for the same key
/// and subject without the WWDR marker (TestArchives/pki-twin.sh). OpenSSL alone builds one chain
/// through whichever it meets first; the verifier tries every candidate chain against the
/// policies (SignerChainPolicy) and accepts the suitable one.
@Suite("Verification tries the policies on every candidate chain")
struct CandidateChainTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// Apple's roots and the test root, the test WWDR not bundled: the archive's embedded
    /// certificates are the only intermediates.
    static func verifier() throws -> OrderVerifier {
        OrderVerifier(trustStore: try TrustStore.apple.adding(roots: [SigningTests.pki("root.pem")]), clock: { now })
    }

    static func archive(embedding chain: [String]) throws -> Data {
        let signer = try SigningTests.signer(chain: chain)
        return try OrderPackageBuilder(signer: signer, clock: { SigningTests.signingTime }).build(files: SigningTests.sources())
    }

    @Test(
        "an unsuitable intermediate met first does not hide the suitable one",
        arguments: [
            ["wwdr-unmarked-twin", "wwdr"], ["wwdr", "wwdr-unmarked-twin"],
        ])
    func twoIntermediates(chain: [String]) throws {
        let report = try Self.verifier().verify(try Self.archive(embedding: chain))
        #expect(report.isValid, "\(report.errors)")
        #expect(report.signer?.chain.count == 3)
    }

    @Test("with only the unsuitable intermediate, its violation is reported")
    func onlyTheUnsuitable() throws {
        let report = try Self.verifier().verify(try Self.archive(embedding: ["wwdr-unmarked-twin"]))
        #expect(report.errorCodes == [.signatureNotOrderTypeCertificate])
        #expect(report.errors.first?.message.contains("lacks the Apple WWDR marker") == true)
    }

    @Test("a remembered chain that fails the policies does not stop a suitable one offered later")
    func rememberedUnsuitable() throws {
        let verifier = try Self.verifier()
        #expect(!verifier.verify(try Self.archive(embedding: ["wwdr-unmarked-twin"])).isValid)
        #expect(verifier.verify(try Self.archive(embedding: ["wwdr-unmarked-twin", "wwdr"])).isValid)
        #expect(
            verifier.verify(try Self.archive(embedding: ["wwdr-unmarked-twin"])).errorCodes == [.signatureNotOrderTypeCertificate]
        )
    }
}
