import Foundation

/// A URL from an order, as the page may use it: only `https:` URLs become links (an order is
/// written by a merchant, read by a customer: `javascript:`, `data:` or `http:` are shown as text
/// at most, never followed).
enum SafeLink {
    /// The URL's text when it is an `https:` URL with a host; nil otherwise.
    static func href(_ url: URL?) -> String? {
        guard let url, url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty else { return nil }
        return url.absoluteString
    }
}
