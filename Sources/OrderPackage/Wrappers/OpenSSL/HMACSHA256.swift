import COpenSSL
import Foundation

/// HMAC-SHA256 (RFC 2104) through OpenSSL's one-shot `HMAC`, for signatures over bytes with a
/// shared secret (background deliveries' `Wallet-Signature`).
///
/// ```swift
/// HMACSHA256.hex(key: Array("key".utf8), message: Data("The quick brown fox jumps over the lazy dog".utf8))
/// // "f7bc83f4…"
/// ```
public enum HMACSHA256 {
    /// The 32 bytes of the MAC of `message` under `key`.
    public static func bytes(key: some Collection<UInt8>, message: Data) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let keyBytes = Array(key)
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            message.withUnsafeBytes { messageBuffer in
                HMAC(
                    EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count),
                    messageBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBuffer.count, &mac, &length)
            }
        }
        // HMAC with SHA-256 fails only when memory runs out; an empty MAC never matches one.
        guard result != nil else { return [] }
        return Array(mac.prefix(Int(length)))
    }

    /// The MAC as 64 lowercase hexadecimal digits.
    public static func hex(key: some Collection<UInt8>, message: Data) -> String {
        SHA256Digest.hexString(bytes(key: key, message: message))
    }
}
