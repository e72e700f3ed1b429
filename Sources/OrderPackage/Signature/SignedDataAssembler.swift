import Foundation

/// A detached SignedData assembled from its parts, with the signed attributes signed exactly as
/// given — not as OpenSSL would encode them again. The differential fuzz target and the tests of
/// ``SignerSignatureCheck`` use it to make signatures whose attribute encodings `CMS_verify` and
/// that check might read differently; `orders` signs through ``OrderSigner``.
enum SignedDataAssembler {
    /// ContentInfo { signedData, [0] SignedData { version, {sha256}, {id-data}, { SignerInfo } } }
    /// with no certificates, signed by `key` over `[0x31, length] + attributes` (SHA-256,
    /// rsaEncryption); the signer named by issuer and serial number, or by `certificate`'s subject
    /// key identifier.
    static func signature(
        attributes: [UInt8], certificate: X509Certificate, key: PrivateKey, byKeyIdentifier: Bool
    ) -> Data? {
        let signed = BERElement.encode(0x31, attributes)
        guard let digest = MessageDigest.bytes(of: signed, algorithm: .sha256),
            let value = key.signPKCS1(digest: digest, algorithm: .sha256)
        else { return nil }
        let identifiers = certificate.signerIdentifiers
        let sid: [UInt8]
        let version: UInt8
        if byKeyIdentifier {
            guard let keyIdentifier = identifiers.subjectKeyIdentifier else { return nil }
            sid = BERElement.encode(0x80, keyIdentifier)
            version = 3
        } else {
            sid = BERElement.encode(0x30, identifiers.issuer + identifiers.serialNumber)
            version = 1
        }
        let sha256 = algorithm(.sha256)
        let signerInfo = BERElement.encode(
            0x30,
            [0x02, 0x01, version] + sid + sha256 + BERElement.encode(0xA0, attributes) + algorithm(.rsaEncryption)
                + BERElement.encode(0x04, value))
        let signedData = BERElement.encode(
            0x30,
            [0x02, 0x01, version] + BERElement.encode(0x31, sha256)
                + BERElement.encode(0x30, BERElement.encode(0x06, ObjectIdentifierName.data.der))
                + BERElement.encode(0x31, signerInfo))
        return Data(
            BERElement.encode(
                0x30,
                BERElement.encode(0x06, ObjectIdentifierName.signedData.der) + BERElement.encode(0xA0, signedData)))
    }

    /// The usual signed attributes' content: contentType id-data, signingTime (a UTCTime's text,
    /// when given), messageDigest.
    static func attributes(messageDigest: [UInt8], signingTime: String?) -> [UInt8] {
        var content = attribute(SignedAttributes.contentType, BERElement.encode(0x06, ObjectIdentifierName.data.der))
        if let signingTime {
            content += attribute(SignedAttributes.signingTimeType, BERElement.encode(0x17, Array(signingTime.utf8)))
        }
        return content + attribute(SignedAttributes.messageDigestType, BERElement.encode(0x04, messageDigest))
    }

    /// One Attribute: `SEQUENCE { type, SET { value } }`.
    static func attribute(_ type: ObjectIdentifierName, _ value: [UInt8]) -> [UInt8] {
        BERElement.encode(0x30, BERElement.encode(0x06, type.der) + BERElement.encode(0x31, value))
    }

    private static func algorithm(_ name: ObjectIdentifierName) -> [UInt8] {
        BERElement.encode(0x30, BERElement.encode(0x06, name.der) + [0x05, 0x00])
    }
}
