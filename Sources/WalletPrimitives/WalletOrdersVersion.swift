/// The version of wallet-orders, in one place: `orders --version`, `GET /health`'s `version`,
/// and the `User-Agent` of webhooks (`wallet-orders/VERSION`) all read it. CHANGELOG.md's newest
/// released section names the same number (`VersionTests` holds them together).
public enum WalletOrdersVersion {
    /// The semantic version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.3.0"

    /// `wallet-orders/VERSION`: the `User-Agent` of the service's own HTTP requests.
    public static var userAgent: String { "wallet-orders/\(current)" }
}
