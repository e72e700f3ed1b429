import WalletCore

/// A key just created: the stored record and the whole secret token, which is shown once and
/// never stored (`wok_<identifier>_<64 hex digits>`).
public struct CreatedAPIKey: Sendable {
    public var key: APIKey
    public var token: String
}

/// What revoking a key did: which key (its identifier, never its secret), and whether it was
/// already revoked.
public struct RevokedAPIKey: Sendable, Hashable {
    public var identifier: String
    public var wasAlreadyRevoked: Bool
}

/// A key as a person names it: the identifier alone, or the whole `wok_<identifier>_<secret>`.
/// Anything that starts like a whole key is read as one, so that what is shown of it (the
/// identifier) never includes a piece of a secret, even of a mistyped one.
struct APIKeyReference {
    var identifier: String
    var secret: String?

    init(_ text: String) {
        guard text.hasPrefix("wok_") else {
            identifier = text
            return
        }
        let parts = text.dropFirst(4).split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        identifier = String(parts[0].prefix(16))
        secret = parts.count > 1 ? String(parts[1]) : ""
    }
}
