import COpenSSL
import Foundation

/// The digests a signer may name (SHA-256, -384, -512), through OpenSSL's EVP interface.
enum MessageDigest {
    /// The digests, fetched from OpenSSL's default provider once: `EVP_sha256()` and its kind make
    /// OpenSSL 3 look the implementation up in its provider tables, under a lock, on every call.
    private struct Fetched: @unchecked Sendable {
        let sha256 = EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()
        let sha384 = EVP_MD_fetch(nil, "SHA384", nil) ?? EVP_sha384()
        let sha512 = EVP_MD_fetch(nil, "SHA512", nil) ?? EVP_sha512()
    }

    private static let fetched = Fetched()

    /// SHA-256, fetched once.
    static var sha256: OpaquePointer? { fetched.sha256 }

    /// OpenSSL's digest for `algorithm`, nil for any other.
    static func evp(_ algorithm: ObjectIdentifierName) -> OpaquePointer? {
        switch algorithm {
        case .sha256: fetched.sha256
        case .sha384: fetched.sha384
        case .sha512: fetched.sha512
        default: nil
        }
    }

    /// The digest of `bytes`, nil for another algorithm.
    static func bytes(of bytes: some ContiguousBytes, algorithm: ObjectIdentifierName) -> [UInt8]? {
        guard let md = evp(algorithm) else { return nil }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, md, nil)
        }
        guard ok == 1 else { return nil }
        return Array(digest.prefix(Int(length)))
    }
}
