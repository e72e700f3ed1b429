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

    deinit {
        EVP_PKEY_free(pointer)
    }
}
