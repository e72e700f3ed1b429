import Foundation
import OrderPackage
import WalletPrimitives

/// Proof Key for Code Exchange (RFC 7636), `S256` only: the client sends
/// `BASE64URL(SHA256(verifier))` with the authorization request and the verifier with the code,
/// so a code intercepted on its way back is useless to whoever does not hold the verifier.
///
/// ```swift
/// let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
/// PKCE.challenge(for: verifier)   // "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
/// ```
public enum PKCE {
    /// The one method accepted: `plain` would send the verifier itself through the browser.
    public static let method = "S256"

    /// RFC 7636 §4.1: 43–128 characters of `A–Z a–z 0–9 - . _ ~`.
    public static func isValidVerifier(_ verifier: String) -> Bool {
        (43...128).contains(verifier.utf8.count) && verifier.utf8.allSatisfy(isUnreserved)
    }

    /// An S256 challenge: the base64url of 32 bytes, 43 characters.
    public static func isValidChallenge(_ challenge: String) -> Bool {
        challenge.utf8.count == 43 && challenge.utf8.allSatisfy(Base64URL.isAlphabet)
    }

    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256Digest.bytes(of: Data(verifier.utf8)))
    }

    /// Whether `verifier` is well formed and hashes to `challenge`, compared in constant time.
    public static func verify(_ verifier: String, against challenge: String) -> Bool {
        let computed = Self.challenge(for: verifier)
        let matches = ConstantTime.equals(Array(computed.utf8), Array(challenge.utf8))
        return isValidVerifier(verifier) && matches
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        Base64URL.isAlphabet(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
    }
}
