import Foundation
import TestArchiveTable
import Testing

@testable import OrderPackage

/// Signers made from where a key is (issue 43, item 1): PEM and PKCS#12 files, passphrases read
/// from where the location says, and the locations a store must refuse to keep. The PKCS#11
/// path runs against SoftHSM2 in `SigningCommandTests` (a process of its own: the module reads
/// its configuration from the environment once).
@Suite("Signing key locations")
struct SigningKeyLocationTests {
    static let type = TestOrderArchive.orderTypeIdentifier

    static func path(_ name: String) -> String {
        TestArchiveTable.directory.appendingPathComponent("pki/\(name)").path
    }

    static func passphraseFile(_ contents: String) throws -> SecretSource {
        let file = try TemporaryDirectory.make("passphrase").appendingPathComponent("passphrase")
        try Data(contents.utf8).write(to: file)
        return .file(path: file.path)
    }

    static func identity(_ signer: OrderSigner) throws -> SigningIdentity {
        try SigningIdentity(
            orderTypeIdentifier: type, signer: signer, verifier: TestOrderArchive.verifier(), at: TestOrderArchive.now)
    }

    @Test("a PEM key file signs what Wallet accepts")
    func pemFile() throws {
        let signer = try OrderSigner(
            certificate: SigningTests.pki("order.pem"), key: .file(path: Self.path("order.key"), passphrase: nil),
            intermediates: [SigningTests.pki("wwdr.pem")])
        let identity = try Self.identity(signer)
        #expect(identity.teamIdentifier == "ABCDE12345")
        #expect(
            try signer.certificateSHA256
                == X509Certificate.certificates(pemOrDER: SigningTests.pki("order.pem"))[0].sha256Fingerprint)
        #expect(try X509Certificate.certificates(pemOrDER: Data(signer.intermediatesPEM.utf8)).count == 1)
    }

    @Test("a PKCS#12 file gives the key, the certificate and the intermediate; the passphrase's line ending is not part of it")
    func pkcs12() throws {
        let signer = try OrderSigner(
            certificate: nil, key: .file(path: Self.path("order.p12"), passphrase: Self.passphraseFile("wallet-orders\r\n")))
        #expect(signer.orderTypeIdentifier == Self.type)
        #expect(
            signer.intermediates.map(\.subjectDescription) == [
                try X509Certificate.certificates(pemOrDER: SigningTests.pki("wwdr.pem"))[0].subjectDescription
            ])
        _ = try Self.identity(signer)
    }

    @Test("a legacy (RC2-40) PKCS#12 file, as older Keychain Access exports, is read")
    func legacyPKCS12() throws {
        let signer = try OrderSigner(
            certificate: nil, key: .file(path: Self.path("order-legacy.p12"), passphrase: Self.passphraseFile("wallet-orders")),
            intermediates: [SigningTests.pki("wwdr.pem")])
        _ = try Self.identity(signer)
    }

    @Test("an identity whose signer embeds no intermediate embeds the trusted one that issued its certificate")
    func embedsTheIssuingIntermediate() throws {
        let signer = try OrderSigner(
            certificate: SigningTests.pki("order.pem"), key: .file(path: Self.path("order.key"), passphrase: nil))
        #expect(signer.intermediates.isEmpty)
        let trust = try TrustStore(
            roots: [SigningTests.pki("root.pem")],
            intermediates: [SigningTests.pki("wwdr.pem"), SigningTests.pki("untrusted-wwdr.pem")])
        let identity = try SigningIdentity(
            orderTypeIdentifier: Self.type, signer: signer,
            verifier: OrderVerifier(trustStore: trust, clock: { TestOrderArchive.now }),
            at: TestOrderArchive.now)
        #expect(
            identity.signer.intermediates.map(\.sha256Fingerprint) == [
                try X509Certificate.certificates(pemOrDER: SigningTests.pki("wwdr.pem"))[0].sha256Fingerprint
            ])
    }

    @Test(
        "refusals, each with its code",
        arguments: [
            ("a wrong passphrase", SigningKeyLocation.file(path: path("order.p12"), passphrase: nil), "signer.invalidPrivateKey"),
            ("a missing file", .file(path: path("absent.key"), passphrase: nil), "signer.invalidPrivateKey"),
            (
                "an unset variable",
                .file(path: path("order.p12"), passphrase: .environment(name: "WALLET_ORDERS_TEST_UNSET_4f1c")),
                "signer.secretUnavailable"
            ),
            (
                "an unreadable passphrase file", .file(path: path("order.p12"), passphrase: .file(path: "/nonexistent/pass")),
                "signer.secretUnavailable"
            ),
            (
                "a PIN in the URI", .pkcs11(uri: "pkcs11:token=shop;object=key;pin-value=1234", module: nil, pin: nil),
                "signer.secretInKeyLocation"
            ),
            (
                "a PIN in the URI's query", .pkcs11(uri: "pkcs11:token=shop;object=key?PIN-VALUE=1234", module: nil, pin: nil),
                "signer.secretInKeyLocation"
            ),
            (
                "where to read the PIN, in the URI (issue 52, item 6)",
                .pkcs11(uri: "pkcs11:token=shop;object=key?pin-source=file:/run/secrets/pin", module: nil, pin: nil),
                "signer.secretInKeyLocation"
            ),
            (
                "pin-source as a path attribute",
                .pkcs11(uri: "pkcs11:token=shop;Pin-Source=%2Frun%2Fpin;object=key", module: nil, pin: nil),
                "signer.secretInKeyLocation"
            ),
            ("not a PKCS#11 URI", .pkcs11(uri: "file:/etc/key.pem", module: nil, pin: nil), "signer.invalidPrivateKey"),
            (
                "a module that is not there", .pkcs11(uri: "pkcs11:object=key", module: "/nonexistent/module.so", pin: nil),
                "signer.invalidPrivateKey"
            ),
        ])
    func refused(_ what: String, _ location: SigningKeyLocation, _ code: String) throws {
        #expect {
            _ = try OrderSigner(certificate: SigningTests.pki("order.pem"), key: location)
        } throws: { error in
            (error as? OrderSignerError)?.code == code
        }
    }

    @Test("a passphrase file longer than the limit is refused, not cut")
    func longPassphrase() throws {
        let source = try Self.passphraseFile(String(repeating: "x", count: SecretSource.limit + 1))
        #expect(
            throws: OrderSignerError.secretUnavailable(source: source.summary, reason: "longer than \(SecretSource.limit) bytes")
        ) {
            try source.read()
        }
        #expect(
            try Self.passphraseFile(String(repeating: "x", count: SecretSource.limit)).read().utf8.count == SecretSource.limit)
    }

    @Test("a PEM key without a certificate is refused: signer.invalidCertificate")
    func noCertificate() throws {
        #expect {
            _ = try OrderSigner(certificate: nil, key: .file(path: Self.path("order.key"), passphrase: nil))
        } throws: { error in
            (error as? OrderSignerError)?.code == "signer.invalidCertificate"
        }
    }

    @Test("the stored JSON form is the documented one, and names no secret")
    func storedForm() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let location = SigningKeyLocation.pkcs11(
            uri: "pkcs11:token=shop;object=order-key", module: "/usr/lib/softhsm/libsofthsm2.so",
            pin: .environment(name: "SHOP_PIN"))
        #expect(
            String(decoding: try encoder.encode(location), as: UTF8.self)
                == #"{"pkcs11":{"module":"/usr/lib/softhsm/libsofthsm2.so","pin":{"environment":{"name":"SHOP_PIN"}},"uri":"pkcs11:token=shop;object=order-key"}}"#
        )
        #expect(try JSONDecoder().decode(SigningKeyLocation.self, from: encoder.encode(location)) == location)
        #expect(location.summary == "pkcs11:token=shop;object=order-key via /usr/lib/softhsm/libsofthsm2.so, PIN from $SHOP_PIN")
    }
}
