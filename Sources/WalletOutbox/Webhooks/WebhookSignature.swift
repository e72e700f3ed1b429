import Foundation
import OrderPackage
import WalletPrimitives

/// The `Wallet-Signature` header of a background delivery:
/// `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + body)>` — byte for byte the scheme of
/// Stripe's webhooks (`Stripe-Signature`), so `stripe.Webhook.construct_event` and its kin verify
/// it. A receiver recomputes the MAC over the raw body with its endpoint's secret, compares in
/// constant time, and refuses a timestamp more than five minutes away from its clock (a replayed
/// delivery). docs/background-delivery.md has verifiers to copy; the same delivery also carries
/// ``StandardWebhookSignature``'s headers.
public enum WebhookSignature {
    /// The header's name.
    public static let headerName = "Wallet-Signature"
    /// How far a timestamp may be from the receiver's clock, in seconds.
    public static let tolerance: TimeInterval = 300

    /// The header's value for `body` signed at `time`.
    public static func value(secret: String, time: Date, body: Data) -> String {
        let timestamp = Int64(time.timeIntervalSince1970.rounded(.down))
        return "t=\(timestamp),v1=\(mac(secret: secret, timestamp: timestamp, body: body))"
    }

    /// Whether `header` signs `body` with `secret` at a time within ``tolerance`` of `now`. Any
    /// of several `v1=` values may match (a receiver rotating secrets); other schemes are ignored.
    public static func isValid(
        _ header: String, secret: String, body: Data, now: Date, tolerance: TimeInterval = tolerance
    )
        -> Bool
    {
        var timestamp: Int64?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "t": timestamp = Int64(pair[1])
            case "v1": signatures.append(pair[1])
            default: continue
            }
        }
        guard let timestamp, abs(now.timeIntervalSince1970 - TimeInterval(timestamp)) <= tolerance else { return false }
        let expected = Array(mac(secret: secret, timestamp: timestamp, body: body).utf8)
        // Every candidate compared whole: equal work whichever matches.
        var matched = false
        for signature in signatures where ConstantTime.equals(expected, Array(signature.utf8)) { matched = true }
        return matched
    }

    private static func mac(secret: String, timestamp: Int64, body: Data) -> String {
        HMACSHA256.hex(key: Array(secret.utf8), message: Data("\(timestamp).".utf8) + body)
    }
}
