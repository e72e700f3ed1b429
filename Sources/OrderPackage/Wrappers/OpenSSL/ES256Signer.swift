import COpenSSL
import Foundation

/// ECDSA P-256 with SHA-256 (JWS `ES256`), for APNs provider tokens signed with a `.p8` key.
/// It lives beside the other OpenSSL wrappers so that the system OpenSSL the package already
/// links does this too (no second crypto library in the build).
///
/// ```swift
/// let signer = try ES256Signer(pem: p8File)
/// let signature = try signer.sign(Data("header.claims".utf8))   // 64 bytes: r ‖ s
/// ```
public final class ES256Signer: Sendable {
    private let key: PrivateKey

    /// Reads a PKCS#8 PEM EC P-256 private key (Apple's `AuthKey_XXXX.p8`).
    public init(pem: Data) throws(ES256SignerError) {
        do {
            key = try PrivateKey(pem: pem)
        } catch {
            throw .invalidKey(reason: error.description)
        }
        guard EVP_PKEY_get_base_id(key.pointer) == EVP_PKEY_EC, EVP_PKEY_get_bits(key.pointer) == 256 else {
            throw .invalidKey(reason: "not a P-256 elliptic-curve key")
        }
    }

    /// The signature of `message` as JWS wants it: r and s, 32 bytes each, big-endian.
    public func sign(_ message: Data) throws(ES256SignerError) -> Data {
        guard let context = EVP_MD_CTX_new() else { throw .signingFailed }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else { throw .signingFailed }
        var length = 0
        let signed = message.withUnsafeBytes { buffer -> [UInt8]? in
            let bytes = buffer.bindMemory(to: UInt8.self).baseAddress
            guard EVP_DigestSign(context, nil, &length, bytes, buffer.count) == 1 else { return nil }
            var der = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &der, &length, bytes, buffer.count) == 1 else { return nil }
            return Array(der.prefix(length))
        }
        guard let signed else { throw .signingFailed }
        return try Self.raw(fromDER: signed)
    }

    /// DER `ECDSA-Sig-Value` → r ‖ s.
    private static func raw(fromDER der: [UInt8]) throws(ES256SignerError) -> Data {
        var cursor: UnsafePointer<UInt8>? = nil
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw .signingFailed }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(signature, &r, &s)
        var output = [UInt8](repeating: 0, count: 64)
        guard let r, let s,
            output.withUnsafeMutableBufferPointer({ buffer in
                guard let base = buffer.baseAddress else { return false }
                return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
            })
        else { throw .signingFailed }
        return Data(output)
    }
}

/// Why an ES256 key cannot be used.
public enum ES256SignerError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidKey(reason: String)
    case signingFailed

    public var description: String {
        switch self {
        case .invalidKey(let reason): "the APNs key cannot be used: \(reason)"
        case .signingFailed: "signing the APNs provider token failed"
        }
    }
}
