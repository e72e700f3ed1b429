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
    public static func hexString(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            var index = 0
            for byte in bytes {
                buffer[index] = hexDigit(byte >> 4)
                buffer[index + 1] = hexDigit(byte & 0x0F)
                index += 2
            }
            return index
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
