import COpenSSL
import COpenSSLShims
import Foundation

/// What a CMS signer identifier is compared with, read once per certificate object.
struct X509SignerIdentifiers: Sendable {
    /// The issuer Name's encoding as the certificate holds it.
    var issuer: [UInt8]
    /// The serial number as a DER INTEGER (tag and length included).
    var serialNumber: [UInt8]
    /// The subject key identifier extension's octets, as `CMS_verify` reads them.
    var subjectKeyIdentifier: [UInt8]?
}

extension X509Certificate {
    /// The issuer, serial number and subject key identifier in the forms a signer identifier
    /// carries them (``SignerSignatureCheck``).
    var signerIdentifiers: X509SignerIdentifiers {
        cachedSignerIdentifiers.withLock { cached in
            if let cached { return cached }
            let identifiers = readSignerIdentifiers()
            cached = identifiers
            return identifiers
        }
    }

    private func readSignerIdentifiers() -> X509SignerIdentifiers {
        var issuer: [UInt8] = []
        var der: UnsafePointer<UInt8>?
        var length = 0
        if let name = X509_get_issuer_name(pointer), X509_NAME_get0_der(name, &der, &length) == 1, let der {
            issuer = Array(UnsafeBufferPointer(start: der, count: length))
        }
        var serialNumber: [UInt8] = []
        if let serial = X509_get0_serialNumber(pointer) {
            var buffer: UnsafeMutablePointer<UInt8>?
            let count = i2d_ASN1_INTEGER(serial, &buffer)
            if count > 0, let buffer {
                serialNumber = Array(UnsafeBufferPointer(start: buffer, count: Int(count)))
                wo_OPENSSL_free(buffer)
            }
        }
        var keyIdentifier: [UInt8]?
        if let octets = X509_get0_subject_key_id(pointer), let data = ASN1_STRING_get0_data(octets) {
            keyIdentifier = Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(octets))))
        }
        return X509SignerIdentifiers(issuer: issuer, serialNumber: serialNumber, subjectKeyIdentifier: keyIdentifier)
    }

    /// The certificate's public key, borrowed for as long as the certificate lives.
    var publicKey: PublicKey? {
        X509_get0_pubkey(pointer).map { PublicKey(borrowing: $0, owner: self) }
    }
}
