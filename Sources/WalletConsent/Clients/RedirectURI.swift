import Foundation
import WalletPrimitives

/// Where an authorization server may send a person back with a code (RFC 6749 §3.1.2, RFC 8252
/// for apps), and how the answer is added to it.
///
/// Accepted at registration: `https://` with a host; `http://` only to this machine's loopback
/// (`127.0.0.1`, `[::1]`, `localhost`: an app listening locally); or an app's private-use scheme
/// named after a domain it owns (`com.example.budget:/callback`). Never a fragment, never
/// `javascript:`, `data:` or `file:`. Requests must then name one of them exactly.
public enum RedirectURI {
    public static let maximumLength = 2_000

    public static func check(_ uri: String) throws(ConsentError) {
        guard uri.utf8.count <= maximumLength, !uri.isEmpty,
            uri.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        else { throw .invalidClientRegistration("a redirect URI must be printable ASCII without spaces, at most 2,000 bytes") }
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else {
            throw .invalidClientRegistration("\(uri) is not an absolute URI")
        }
        guard components.fragment == nil else {
            throw .invalidClientRegistration("a redirect URI must not have a fragment (\(uri))")
        }
        switch scheme {
        case "https":
            guard let host = components.host, !host.isEmpty else {
                throw .invalidClientRegistration("\(uri) has no host")
            }
        case "http":
            guard let host = components.host?.lowercased(), ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host) else {
                throw .invalidClientRegistration("http is accepted only for loopback (127.0.0.1, [::1], localhost): \(uri)")
            }
        default:
            // RFC 8252 §7.1: a private-use scheme is a reversed domain name, so it contains a dot.
            guard scheme.contains("."), !["javascript", "data", "file", "vbscript", "about", "blob"].contains(scheme)
            else {
                throw .invalidClientRegistration(
                    "\(uri): use https, http to loopback, or an app scheme named after a domain (com.example.app:/callback)")
            }
        }
    }

    /// `uri` with `parameters` added to its query, each name and value percent-encoded (Foundation's
    /// query items leave `&`, `=` and `+` as they are, which would let a `state` inject parameters).
    public static func adding(_ parameters: [(String, String)], to uri: String) -> String {
        let query = parameters.map { "\(PercentEncoding.encode($0.0))=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        guard var components = URLComponents(string: uri) else { return uri }
        components.percentEncodedQuery = [components.percentEncodedQuery, query].compactMap { $0 }.filter { !$0.isEmpty }
            .joined(separator: "&")
        return components.string ?? uri
    }

    /// The origin a page's `form-action` must allow for a redirect to `uri`: `https://host:port`,
    /// or the app's scheme (`com.example.budget:`).
    public static func formActionSource(for uri: String) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else { return nil }
        guard scheme == "https" || scheme == "http" else { return scheme + ":" }
        guard let host = components.percentEncodedHost else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }
}
