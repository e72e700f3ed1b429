/// `Authorization: <scheme> <credentials>` (RFC 9110 §11.1): Apple's `AppleOrder <token>` for
/// devices, `Bearer <API key>` for the merchant API.
public enum AuthorizationHeader {
    /// The credentials when the header's scheme is `scheme` (compared case-insensitively); nil
    /// for no header, another scheme, empty credentials, or a header over 4 KiB.
    public static func credentials(scheme: String, in header: String?) -> String? {
        guard let header, header.utf8.count <= 4096 else { return nil }
        let value = header.trimmingSpaces
        guard let space = value.firstIndex(where: { $0 == " " || $0 == "\t" }),
            value[..<space].lowercased() == scheme.lowercased()
        else { return nil }
        let credentials = value[space...].trimmingSpaces
        return credentials.isEmpty ? nil : String(credentials)
    }
}
