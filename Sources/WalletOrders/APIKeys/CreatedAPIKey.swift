import WalletCore

/// A key just created: the stored record and the whole secret token, which is shown once and
/// never stored (`wok_<identifier>_<64 hex digits>`).
public struct CreatedAPIKey: Sendable {
    public var key: APIKey
    public var token: String
}
