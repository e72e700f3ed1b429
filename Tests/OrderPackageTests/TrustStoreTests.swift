import Foundation
import Testing
import WalletPrimitives

@testable import OrderPackage

@Suite("Trust store: Apple's certificates compiled in")
struct TrustStoreTests {
    /// From Trust/README.md, where each fingerprint was checked against two independent sources.
    static let pinned: [String: String] = [
        "AppleRootCA": "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024",
        "AppleRootCA-G2": "c2b9b042dd57830e7d117dac55ac8ae19407d38e41d88f3215bc3a890444a050",
        "AppleRootCA-G3": "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179",
        "AppleWWDRCA-G1-2008": "64b302913f11ca1b6806093b76cade7f7b123be0c04924fda87f5f4e8647f051",
        "AppleWWDRCA-G1-2013": "ce057691d730f89ca25e916f7335f4c8a15713dcd273a658c024023f8eb809c2",
        "AppleWWDRCA-G2": "9ed4b3b88c6a339cf1387895bda9ca6ea31a6b5ce9edf7511845923b0c8ac94c",
        "AppleWWDRCA-G3": "dcf21878c77f4198e4b4614f03d696d89c66c66008d4244e1b99161aac91601f",
        "AppleWWDRCA-G4": "ea4757885538dd8cb59ff4556f676087d83c85e70902c122e42c0808b5bce14c",
        "AppleWWDRCA-G5": "53fd008278e5a595fe1e908ae9c5e5675f26243264a5a6438c023e3ce2870760",
        "AppleWWDRCA-G6": "bdd4ed6e74691f0c2bfd01be0296197af1379e0418e2d300efa9c3bef642ca30",
    ]

    @Test("every embedded certificate parses and has its pinned fingerprint")
    func fingerprints() throws {
        let embedded = AppleCertificateAuthorities.roots + AppleCertificateAuthorities.intermediates
        #expect(Set(embedded.map(\.name)) == Set(Self.pinned.keys))
        for (name, pem) in embedded {
            let certificate = try #require(try X509Certificate.certificates(pemOrDER: Data(pem.utf8)).first)
            #expect(certificate.sha256Fingerprint == Self.pinned[name], "\(name)")
        }
        let store = TrustStore.apple
        #expect(
            Set(store.fingerprints.roots)
                == Set(["AppleRootCA", "AppleRootCA-G2", "AppleRootCA-G3"].compactMap { Self.pinned[$0] }))
        #expect(store.fingerprints.intermediates.count == 7)
        // Apple Root CA's own DN is encoded C-first; subjects print in certificate order.
        #expect(store.rootSubjects.contains("C=US,O=Apple Inc.,OU=Apple Certification Authority,CN=Apple Root CA"))
    }

    @Test("WWDR G4 chains to Apple Root CA and G6 to Apple Root CA - G3, at a time they are valid")
    func appleChains() throws {
        let store = try #require(TrustStore.apple.store)
        let instant = try #require(RFC3339Timestamp("2026-06-01T00:00:00Z")).date
        for (name, root) in [("AppleWWDRCA-G4", "CN=Apple Root CA"), ("AppleWWDRCA-G6", "CN=Apple Root CA - G3")] {
            let pem = try #require(AppleCertificateAuthorities.intermediates.first { $0.name == name }?.pem)
            let intermediate = try #require(try X509Certificate.certificates(pemOrDER: Data(pem.utf8)).first)
            guard case .candidates(let chains) = try X509ChainBuilder.candidates(leaf: intermediate, untrusted: [], store: store),
                let chain = chains.first
            else {
                Issue.record("\(name) did not chain")
                continue
            }
            #expect(chain.count == 2)
            #expect(ValidityPolicy(instant: instant).violations(of: chain).isEmpty, "\(name)")
            #expect(chain.last?.subjectDescription.split(separator: ",").contains(Substring(root)) == true, "\(name)")
            #expect(intermediate.hasExtension(oid: WWDRIntermediatePolicy.marker), "\(name) carries the WWDR marker")
        }
    }

    @Test("expired G1 intermediates are reported as expired, not as untrusted")
    func expiredIntermediate() throws {
        let store = try #require(TrustStore.apple.store)
        let pem = try #require(AppleCertificateAuthorities.intermediates.first { $0.name == "AppleWWDRCA-G1-2013" }?.pem)
        let g1 = try #require(try X509Certificate.certificates(pemOrDER: Data(pem.utf8)).first)
        // OpenSSL builds the chain without regard to time; the validity policy judges it.
        guard case .candidates(let chains) = try X509ChainBuilder.candidates(leaf: g1, untrusted: [], store: store),
            let chain = chains.first
        else {
            Issue.record("an expired certificate did not chain")
            return
        }
        let violations = ValidityPolicy(instant: Date(timeIntervalSince1970: 1_800_000_000)).violations(of: chain)
        guard case .certificateExpired(let subject, _, _, _)? = violations.first else {
            Issue.record("not reported as expired: \(violations)")
            return
        }
        #expect(subject == g1.subjectDescription)
    }

    @Test("extra roots: PEM bundles and DER are accepted, garbage is an error")
    func extraRoots() throws {
        let pem = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../TestArchives/pki/root.pem"))
        let der = try #require(try X509Certificate.certificates(pemOrDER: pem).first).derBytes
        #expect(try TrustStore.apple.adding(roots: [pem]).fingerprints.roots.count == 4)
        #expect(try TrustStore.apple.adding(roots: [der]).fingerprints.roots.count == 4)
        #expect(try TrustStore(roots: [pem + pem]).fingerprints.roots.count == 2)
        #expect(throws: TrustStoreError.self) { try TrustStore.apple.adding(roots: [Data("not a certificate".utf8)]) }
    }

    @Test("DER is told from PEM by the PEM header, not by stray '-' bytes", arguments: ["AppleRootCA-G3", "AppleWWDRCA-G2"])
    func derWithDashes(_ name: String) throws {
        // These certificates' DER has a '-' (0x2D) in its first 64 bytes.
        let pem = try #require(
            (AppleCertificateAuthorities.roots + AppleCertificateAuthorities.intermediates).first { $0.name == name }?.pem)
        let der = try #require(try X509Certificate.certificates(pemOrDER: Data(pem.utf8)).first).derBytes
        #expect(der.prefix(64).contains(UInt8(ascii: "-")))
        #expect(try X509Certificate.certificates(pemOrDER: der).first?.sha256Fingerprint == Self.pinned[name])
        #expect(try TrustStore(roots: [der]).fingerprints.roots == [Self.pinned[name]])
        // PEM with text before the header (as `openssl x509 -text` writes) still reads as PEM.
        #expect(try X509Certificate.certificates(pemOrDER: Data(("Bag Attributes\n" + pem).utf8)).count == 1)
    }

    @Test("DER UTF8String decoding handles long-form lengths and rejects everything else")
    func utf8String() {
        #expect(DERUTF8String.decode(Data([0x0C, 0x03]) + Data("abc".utf8)) == "abc")
        let long = String(repeating: "x", count: 200)
        #expect(DERUTF8String.decode(Data([0x0C, 0x81, 0xC8]) + Data(long.utf8)) == long)
        #expect(DERUTF8String.decode(Data([0x13, 0x03]) + Data("abc".utf8)) == nil)  // PrintableString
        #expect(DERUTF8String.decode(Data([0x0C, 0x04]) + Data("abc".utf8)) == nil)  // short
        #expect(DERUTF8String.decode(Data([0x0C, 0x81, 0x03]) + Data("abc".utf8)) == nil)  // non-minimal length
        #expect(DERUTF8String.decode(Data([0x0C, 0x02, 0xFF, 0xFE])) == nil)  // not UTF-8
        #expect(DERUTF8String.decode(Data()) == nil)
    }
}
