import COpenSSL
import Foundation

/// A certificate's public key (`EVP_PKEY`), borrowed from the certificate that owns it.
struct PublicKey {
    let pointer: OpaquePointer
    /// Keeps the key's memory alive.
    let owner: X509Certificate

    init(borrowing pointer: OpaquePointer, owner: X509Certificate) {
        self.pointer = pointer
        self.owner = owner
    }

    /// Whether the key is an RSA key (not RSA-PSS, not EC).
    var isRSA: Bool {
        EVP_PKEY_get_base_id(pointer) == EVP_PKEY_RSA
    }

    /// Whether `signature` is this key's RSA PKCS #1 v1.5 signature of `digest`, a digest made
    /// with `algorithm` (`EVP_PKEY_verify`, as `CMS_verify` checks a signer's signature).
    func verifiesPKCS1(signature: ArraySlice<UInt8>, digest: [UInt8], algorithm: ObjectIdentifierName) -> Bool {
        guard let md = MessageDigest.evp(algorithm),
            let context = owner.verificationContext(digest: md, named: algorithm.name)
        else {
            OpenSSLError.clearQueue()
            return false
        }
        defer {
            EVP_PKEY_CTX_free(context)
            OpenSSLError.clearQueue()
        }
        return withExtendedLifetime(owner) {
            signature.withUnsafeBufferPointer { signature in
                EVP_PKEY_verify(context, signature.baseAddress, signature.count, digest, digest.count) == 1
            }
        }
    }
}
