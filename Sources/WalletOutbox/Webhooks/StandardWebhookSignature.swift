import Foundation
import OrderPackage
import WalletPrimitives

/// The Standard Webhooks headers of a background delivery (standardwebhooks.com), beside
/// `Wallet-Signature`: `webhook-id` (the delivery id), `webhook-timestamp` (unix seconds) and
/// `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>." + body)>`, the key being
/// the endpoint secret's UTF-8 bytes — what a Standard Webhooks library holds as
/// ``FinanceData/DeliverySecret/standardWebhooksForm(of:)``. Those libraries, in every language,
/// verify a delivery as it is.
public enum StandardWebhookSignature {
    /// The three headers, in order, for `body` with id `id` signed at `time`.
    public static func headers(secret: String, id: String, time: Date, body: Data) -> [(name: String, value: String)] {
        let timestamp = Int64(time.timeIntervalSince1970.rounded(.down))
        return [
            ("webhook-id", id), ("webhook-timestamp", "\(timestamp)"),
            ("webhook-signature", "v1," + signature(secret: secret, id: id, timestamp: timestamp, body: body)),
        ]
    }

    /// Whether `signatureHeader` (space-separated `v1,<base64>` values) signs `body` with id `id`
    /// at `timestampHeader`, within ``WebhookSignature/tolerance`` of `now`.
    public static func isValid(
        id: String, timestampHeader: String, signatureHeader: String, secret: String, body: Data, now: Date,
        tolerance: TimeInterval = WebhookSignature.tolerance
    ) -> Bool {
        guard let timestamp = Int64(timestampHeader), abs(now.timeIntervalSince1970 - TimeInterval(timestamp)) <= tolerance
        else { return false }
        let expected = Array(signature(secret: secret, id: id, timestamp: timestamp, body: body).utf8)
        var matched = false
        for candidate in signatureHeader.split(separator: " ") where candidate.hasPrefix("v1,") {
            if ConstantTime.equals(expected, Array(candidate.dropFirst(3).utf8)) { matched = true }
        }
        return matched
    }

    private static func signature(secret: String, id: String, timestamp: Int64, body: Data) -> String {
        signature(key: Array(secret.utf8), id: id, timestamp: timestamp, body: body)
    }

    /// The base64 of HMAC-SHA256(`key`, `"<id>.<timestamp>." + body`): a `v1` signature for the
    /// key a `whsec_` secret's base64 holds.
    public static func signature(key: [UInt8], id: String, timestamp: Int64, body: Data) -> String {
        Data(HMACSHA256.bytes(key: key, message: Data("\(id).\(timestamp).".utf8) + body)).base64EncodedString()
    }
}
