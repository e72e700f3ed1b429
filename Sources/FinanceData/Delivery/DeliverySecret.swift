import Foundation

/// A background-delivery endpoint's signing secret in the two forms a receiver may hold it.
///
/// Issued as `wds_…`; its UTF-8 bytes are the HMAC key of both signature schemes a delivery
/// carries — `Wallet-Signature` (Stripe's scheme) and Standard Webhooks'. The Standard Webhooks
/// libraries take a secret as `whsec_` + the key's base64 (standardwebhooks.com); this is that
/// form of the same key, so one secret verifies both.
public enum DeliverySecret {
    /// `whsec_` + base64 of `secret`'s UTF-8 bytes.
    public static func standardWebhooksForm(of secret: String) -> String {
        "whsec_" + Data(secret.utf8).base64EncodedString()
    }
}
