import COpenSSL
import Foundation

/// An owned OpenSSL `EVP_PKEY`: read from PEM (PKCS#8 or traditional; optionally encrypted), from
/// a PKCS#12 file (``PKCS12Bundle``) or through a PKCS#11 token (``PKCS11Engine``).
final class PrivateKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of one reference to `pointer`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    init(pem: Data, passphrase: String? = nil) throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        let bio = try MemoryBIO(pem)
        let key: OpaquePointer?
        if let passphrase {
            // With a nil callback, OpenSSL treats the user argument as the passphrase string.
            key = passphrase.withCString { PEM_read_bio_PrivateKey(bio.pointer, nil, nil, UnsafeMutableRawPointer(mutating: $0)) }
        } else {
            // An empty passphrase makes OpenSSL fail instead of prompting on the terminal.
            key = "".withCString { PEM_read_bio_PrivateKey(bio.pointer, nil, nil, UnsafeMutableRawPointer(mutating: $0)) }
        }
        guard let key else { throw OpenSSLError("read the private key") }
        pointer = key
    }

    /// Whether this key is the private half of `certificate`'s public key.
    func matches(_ certificate: X509Certificate) -> Bool {
        X509_check_private_key(certificate.pointer, pointer) == 1
    }

    /// This RSA key's PKCS #1 v1.5 signature of `digest`, made with `algorithm`
    /// (``SignedDataAssembler``; orders are signed through CMS by ``OrderSigner``).
    func signPKCS1(digest: [UInt8], algorithm: ObjectIdentifierName) -> [UInt8]? {
        guard let md = MessageDigest.evp(algorithm), let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            return nil
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_sign_init(context) == 1, EVP_PKEY_CTX_set_signature_md(context, md) == 1 else { return nil }
        var length = 0
        guard EVP_PKEY_sign(context, nil, &length, digest, digest.count) == 1 else { return nil }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_sign(context, &signature, &length, digest, digest.count) == 1 else { return nil }
        return Array(signature.prefix(length))
    }

    deinit {
        EVP_PKEY_free(pointer)
    }
}
