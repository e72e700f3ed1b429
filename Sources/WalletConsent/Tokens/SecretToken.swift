import Foundation
import OrderPackage
import WalletPrimitives

/// A bearer secret this server hands out — a session cookie, an authorization code, an access or
/// refresh token, a client secret: a prefix naming its kind and 256 random bits in base64url
/// (`woa_3q2…`, 47 characters). The store keeps only its SHA-256 (``digest``), so a copy of the
/// database holds no usable secret.
public struct SecretToken: Sendable, Hashable, CustomStringConvertible {
    /// What a token is for, as its prefix says (and as secret scanners can match it).
    public enum Kind: String, Sendable, CaseIterable {
        case session = "wos"
        case authorizationCode = "woc"
        case accessToken = "woa"
        case refreshToken = "wor"
        case clientSecret = "wcs"
        /// A browser the owner signed in from: its later sign-ins count against it alone.
        case trustedDevice = "wod"
        /// A background-delivery endpoint's signing secret: the only kind the store keeps as it is
        /// (an HMAC needs the secret itself).
        case deliverySecret = "wds"
    }

    /// The secret itself: shown once, to whoever it is issued to.
    public let value: String

    /// A new random token of this kind.
    public static func generate(_ kind: Kind) -> SecretToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return SecretToken(value: kind.rawValue + "_" + Base64URL.encode(bytes))
    }

    /// What the store keeps: the SHA-256 of the token, in hex.
    public var digest: String { Self.digest(of: value) }

    /// The digest of a presented token, whatever its form (an unknown one simply matches nothing).
    public static func digest(of presented: String) -> String {
        SHA256Digest.hex(of: Data(presented.utf8))
    }

    /// Whether `presented` has this kind's form: the prefix and 43 base64url characters.
    public static func hasForm(_ presented: String, of kind: Kind) -> Bool {
        let utf8 = presented.utf8
        return utf8.count == 47 && presented.hasPrefix(kind.rawValue + "_")
            && utf8.dropFirst(4).allSatisfy(Base64URL.isAlphabet)
    }

    /// Never the secret: its kind only.
    public var description: String { "SecretToken(\(value.prefix(3)))" }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5), as PKCE and tokens use it.
public enum Base64URL {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `A–Z a–z 0–9 - _`.
    public static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
