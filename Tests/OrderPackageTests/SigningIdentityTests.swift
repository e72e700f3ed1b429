import Foundation
import TestArchiveTable
import Testing
import WalletPrimitives

@testable import OrderPackage

/// A signing identity is checked as Wallet checks what it signs (issue 43, item 1): each refusal
/// has its code, and the accepted identity's signatures verify.
@Suite("Signing identities: checked before they sign")
struct SigningIdentityTests {
    static let type = TestOrderArchive.orderTypeIdentifier

    static func identity(
        _ leaf: String, chain: [String] = ["wwdr"], type: String = type, at date: Date = TestOrderArchive.now
    ) throws -> SigningIdentity {
        try SigningIdentity(
            orderTypeIdentifier: type, signer: SigningTests.signer(leaf, chain: chain),
            verifier: TestOrderArchive.verifier(), at: date)
    }

    @Test("the test PKI's Order Type ID certificate for its type is accepted, with its team and expiry")
    func accepted() throws {
        let identity = try Self.identity("order")
        #expect(identity.orderTypeIdentifier == Self.type)
        #expect(identity.teamIdentifier != nil)
        let notAfter = try #require(identity.notAfter)
        #expect(notAfter > TestOrderArchive.now)
    }

    @Test(
        "refusals, each with its stable code",
        arguments: [
            ("pass-type", "order.com.example.shop", "signing.notOrderTypeCertificate"),
            ("other-type", "order.com.example.shop", "signing.wrongOrderType"),
            ("expired", "order.com.example.shop", "signing.certificateExpired"),
            ("untrusted", "order.com.example.shop", "signing.untrustedChain"),
        ])
    func refused(_ leaf: String, _ type: String, _ code: String) throws {
        let chain = leaf == "untrusted" ? ["untrusted-wwdr"] : ["wwdr"]
        #expect {
            _ = try Self.identity(leaf, chain: chain, type: type)
        } throws: { error in
            (error as? SigningIdentityError)?.code == code
        }
    }

    @Test("a valid certificate checked after its end is certificateExpired")
    func laterThanItsEnd() throws {
        let notAfter = try #require(try Self.identity("order").notAfter)
        #expect {
            _ = try Self.identity("order", at: notAfter.addingTimeInterval(86_400))
        } throws: { error in
            (error as? SigningIdentityError)?.code == "signing.certificateExpired"
        }
    }

    @Test("a key that is not the certificate's is refused before any check: signer.keyMismatch")
    func keyMismatch() throws {
        #expect {
            _ = try OrderSigner(
                certificate: SigningTests.pki("order.pem"), privateKey: SigningTests.pki("other-type.key"),
                intermediates: [SigningTests.pki("wwdr.pem")])
        } throws: { error in
            (error as? OrderSignerError)?.code == "signer.keyMismatch"
        }
    }
}
