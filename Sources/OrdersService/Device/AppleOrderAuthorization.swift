/// The token of an `Authorization: AppleOrder <token>` header. The scheme is case-insensitive
/// (RFC 9110 §11.1); anything else — another scheme, no token — is no token.
enum AppleOrderAuthorization {
    static func token(from header: String?) -> String? {
        guard let header, header.utf8.count <= 4096 else { return nil }
        let value = header.trimmingSpaces
        guard let space = value.firstIndex(where: { $0 == " " || $0 == "\t" }),
            value[..<space].lowercased() == "appleorder"
        else { return nil }
        let token = value[space...].trimmingSpaces
        return token.isEmpty ? nil : String(token)
    }
}
