import COpenSSL
import Foundation

/// SHA-256 through OpenSSL's EVP interface.
///
/// ```swift
/// SHA256Digest.hex(of: Data("abc".utf8))   // "ba7816bf…"
/// ```
public enum SHA256Digest {
    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func hex(of bytes: Data) -> String {
        hexString(self.bytes(of: bytes))
    }

    /// The 32 bytes of the digest of `bytes`.
    public static func bytes(of bytes: Data) -> [UInt8] {
        // Fails only short of memory; an empty result never equals a real digest, so a failure
        // shows up as a mismatch rather than a pass.
        MessageDigest.bytes(of: bytes, algorithm: .sha256) ?? []
    }

    /// `bytes` as lowercase hexadecimal digits, two per byte.
    public static func hexString(_ bytes: some Sequence<UInt8>) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(64)
        for byte in bytes {
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: result, as: UTF8.self)
    }
}
