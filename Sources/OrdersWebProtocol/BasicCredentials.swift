import Foundation

/// `Authorization: Basic …` as OAuth clients send it (RFC 6749 §2.3.1): base64 of
/// `client_id:client_secret`, each form-urlencoded first.
public struct BasicCredentials: Sendable, Hashable {
    public var user: String
    public var password: String

    /// Nil for no header, another scheme, base64 that does not decode, no colon, or a part that
    /// does not form-decode.
    public init?(header: String?) {
        guard let encoded = AuthorizationHeader.credentials(scheme: "Basic", in: header),
            let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"),
            let fields = try? FormFields("u=\(text[..<colon])&p=\(text[text.index(after: colon)...])"),
            fields.pairs.count == 2, let user = fields.value("u"), let password = fields.value("p")
        else { return nil }
        self.user = user
        self.password = password
    }
}
