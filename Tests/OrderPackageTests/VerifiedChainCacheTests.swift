import COpenSSL
import Foundation
import TestArchiveTable
import Testing
import WalletPrimitives

@testable import OrderPackage

/// A trust store remembers the chains it verified (``VerifiedChainCache``); a remembered chain
/// must never change a verdict.
@Suite("Remembered certificate chains")
struct VerifiedChainCacheTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func verifier(_ store: TrustStore) -> OrderVerifier {
        OrderVerifier(trustStore: store, clock: { now })
    }

    @Test("with chains remembered, every test archive gets the report a fresh store gives")
    func sameVerdictAsFresh() throws {
        let warm = Self.verifier(try TestArchiveTable.trustStore())
        // Twice over: the second pass meets every chain the first remembered.
        for pass in 1...2 {
            for row in TestArchiveTable.rows {
                let archive = try Data(contentsOf: row.url)
                let remembered = warm.verify(archive, at: row.time)
                let fresh = Self.verifier(try TestArchiveTable.trustStore()).verify(archive, at: row.time)
                #expect(remembered.errors == fresh.errors, "pass \(pass): \(row.file)")
                #expect(remembered.warnings == fresh.warnings, "pass \(pass): \(row.file)")
                #expect(remembered.signer == fresh.signer, "pass \(pass): \(row.file)")
            }
        }
        #expect(warm.trustStore.verifiedChains.count >= 1)
    }

    @Test("a remembered chain is not reused for an archive that lacks its intermediate")
    func intermediateMustBeOffered() throws {
        let sources = try SigningTests.sources()
        func package(embedding intermediate: String) throws -> Data {
            let signer = try SigningTests.signer(chain: [intermediate])
            return try OrderPackageBuilder(signer: signer, clock: { SigningTests.signingTime }).build(files: sources)
        }
        // Apple's roots and the test root, without the test WWDR bundled: only an archive that
        // embeds it can build the chain.
        let verifier = Self.verifier(try TrustStore.apple.adding(roots: [SigningTests.pki("root.pem")]))
        let embedding = try package(embedding: "wwdr")
        #expect(verifier.verify(embedding).isValid)
        #expect(verifier.trustStore.verifiedChains.count == 1)

        // The same leaf (the same certificate object, from the verifier's cache), another
        // intermediate embedded.
        let lacking = try package(embedding: "untrusted-wwdr")
        #expect(verifier.verify(lacking).errorCodes == [.signatureUntrustedChain])
        #expect(verifier.verify(embedding).isValid)
    }

    @Test("a remembered chain is judged again at each instant, to the second, as OpenSSL judges it")
    func validityAtEachInstant() throws {
        let archive = try TestArchiveTable.data("valid/basic.order")
        let leaf = try X509Certificate(der: pemBody(SigningTests.pki("order.pem")))
        let notBefore = try #require(leaf.notBefore)
        let notAfter = try #require(leaf.notAfter)
        let store = try TestArchiveTable.trustStore()
        let warm = Self.verifier(store)
        #expect(warm.verify(archive, at: .signingTime).isValid)
        #expect(store.verifiedChains.count == 1)

        // OpenSSL: valid from notBefore up to, not including, notAfter, in whole seconds.
        let instants: [(Date, Bool)] = [
            (notBefore.addingTimeInterval(-1), false), (notBefore, true), (notBefore.addingTimeInterval(0.5), true),
            (notAfter.addingTimeInterval(-1), true), (notAfter.addingTimeInterval(-0.5), true), (notAfter, false),
            (notAfter.addingTimeInterval(1), false),
        ]
        for (instant, valid) in instants {
            let remembered = warm.verify(archive, at: .at(instant))
            let fresh = Self.verifier(try TestArchiveTable.trustStore()).verify(archive, at: .at(instant))
            #expect(remembered.isValid == valid, "\(instant): \(remembered.errors)")
            #expect(remembered.errors == fresh.errors, "\(instant)")
        }
    }

    @Test("the cache is bounded: when full it starts over")
    func bounded() throws {
        let cache = VerifiedChainCache(capacity: 2)
        let leaves = try ["order", "other-team", "other-type"].map {
            try X509Certificate(der: pemBody(SigningTests.pki("\($0).pem")))
        }
        let root = try X509Certificate(der: pemBody(SigningTests.pki("root.pem")))
        for leaf in leaves { cache.remember([[leaf, root]], of: leaf) }
        #expect(cache.count == 1)
        #expect(cache.chains(of: leaves[2], candidates: [])?.first?.subjects.count == 2)
        #expect(cache.chains(of: leaves[0], candidates: []) == nil)
    }

    /// The DER inside a one-certificate PEM file.
    func pemBody(_ pem: Data) throws -> Data {
        try #require(X509Certificate.certificates(pemOrDER: pem).first).derBytes
    }

    @Test("validity judged from remembered bounds answers as X509_cmp_time does, at and around each bound")
    func validityBoundsAgreeWithOpenSSL() throws {
        let pem = try Data(contentsOf: TestArchiveTable.directory.appendingPathComponent("pki/order.pem"))
        let certificate = try #require(try X509Certificate.certificates(pemOrDER: pem).first)
        let notBefore = try #require(certificate.notBefore).timeIntervalSince1970
        let notAfter = try #require(certificate.notAfter).timeIntervalSince1970
        for seconds in [notBefore - 1, notBefore, notBefore + 0.5, notBefore + 1, notAfter - 1, notAfter, notAfter + 1] {
            var instant = time_t(seconds.rounded(.down))
            let openSSL =
                X509_cmp_time(X509_get0_notBefore(certificate.pointer), &instant) < 0
                && X509_cmp_time(X509_get0_notAfter(certificate.pointer), &instant) > 0
            // Twice: the first call reads the bounds, the second uses what it remembered.
            for _ in 1...2 {
                #expect(certificate.isWithinValidity(for: Date(timeIntervalSince1970: seconds)) == openSSL, "\(seconds)")
            }
        }
    }

    @Test("what a certificate says, read once, answers as a fresh read — absent attributes and extensions included")
    func factsReadOnceAnswerAsFresh() throws {
        let pem = try Data(contentsOf: TestArchiveTable.directory.appendingPathComponent("pki/order.pem"))
        let remembered = try #require(try X509Certificate.certificates(pemOrDER: pem).first)
        for _ in 1...3 {
            let fresh = try #require(try X509Certificate.certificates(pemOrDER: pem).first)
            #expect(remembered.organizationalUnit == fresh.organizationalUnit)
            #expect(remembered.userID == fresh.userID)
            #expect(remembered.extendedKeyUsages == fresh.extendedKeyUsages)
            for oid in [OrderTypeLeafPolicy.orderTypeIdentifierExtension, OrderTypeLeafPolicy.passTypeIdentifierExtension] {
                #expect(remembered.extensionValue(oid: oid) == fresh.extensionValue(oid: oid))
            }
        }
        #expect(remembered.extensionValue(oid: OrderTypeLeafPolicy.orderTypeIdentifierExtension) != nil)
        #expect(remembered.extensionValue(oid: OrderTypeLeafPolicy.passTypeIdentifierExtension) == nil)
    }
}
