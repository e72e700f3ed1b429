import Foundation
import OrderPackage
import WalletPrimitives

/// A provider's signature over a webhook body: an HMAC-SHA256 of the raw bytes under a secret
/// the merchant shares with the provider, in the provider's header and encoding.
///
/// - AfterShip: `aftership-hmac-sha256: <base64 of the MAC>`, the secret as its UTF-8 bytes
///   (https://www.aftership.com/docs/tracking/webhook/webhook-signature).
/// - EasyPost: `X-Hmac-Signature: hmac-sha256-hex=<lowercase hex of the MAC>`, the secret
///   normalized to Unicode NFKD, then UTF-8 (https://docs.easypost.com/docs/webhooks, "HMAC
///   Validation"; the `validate_webhook` of EasyPost's client libraries).
///
/// An endpoint holds up to two secrets at once, so that a merchant can rotate: the body is
/// accepted when it matches either. Every secret is tried and compared in constant time whatever
/// the first comparison found, so the time taken tells nothing about which secret or which byte
/// differed.
public struct TrackingSignature: Sendable {
    /// The provider whose scheme this is.
    public let provider: TrackingProvider

    public init?(provider: TrackingProvider) {
        guard provider.signsBodies else { return nil }
        self.provider = provider
    }

    /// The header the provider signs in, as it spells it.
    public var header: String {
        switch provider {
        case .afterShip: "aftership-hmac-sha256"
        case .easyPost, .generic: "X-Hmac-Signature"
        }
    }

    /// The header's value for `body` under `secret`: what the provider sends.
    public func value(for body: Data, secret: String) -> String {
        switch provider {
        case .afterShip:
            Data(HMACSHA256.bytes(key: Array(secret.utf8), message: body)).base64EncodedString()
        case .easyPost, .generic:
            "hmac-sha256-hex=" + HMACSHA256.hex(key: Array(secret.decomposedStringWithCompatibilityMapping.utf8), message: body)
        }
    }

    /// Checks `presented` (the header's value, nil when absent) against `body` under each of
    /// `secrets`.
    ///
    /// - Throws: ``TrackingError/unsigned(header:)`` without a header,
    ///   ``TrackingError/badSignature(header:)`` when no secret gives it.
    public func check(_ presented: String?, body: Data, secrets: [String]) throws(TrackingError) {
        guard let presented, !presented.isEmpty else { throw .unsigned(header: header) }
        let given = Array(presented.trimmingCharacters(in: .whitespaces).utf8)
        var matched = false
        for secret in secrets {
            matched = ConstantTime.equals(Array(value(for: body, secret: secret).utf8), given) || matched
        }
        guard matched else { throw .badSignature(header: header) }
    }
}
