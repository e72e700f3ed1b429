/// Which `webServiceURL` an authored version may name (docs/authoring.md, "Where devices go").
///
/// Devices that hold an order poll and register at its `webServiceURL`, sending its
/// `authenticationToken`. When the service signs, whoever authors content would otherwise decide
/// where every device holding the order goes — a leaked merchant API key would become a lasting
/// redirect of those devices, and of their token, to a host of its choosing. So the service's own
/// public URL is every authored order's `webServiceURL`; another is accepted only when the
/// operator allowed it for the order type (a merchant that runs its own web service), never
/// because a request names it.
public struct WebServiceURLPolicy: Sendable, Hashable {
    /// The service's public URL with its base path and a final `/` (`https://wallet.example.com/`),
    /// nil when none is configured.
    public let serviceURL: String?
    /// Other URLs the operator allowed, by order type identifier.
    public let allowed: [String: Set<String>]

    /// - Parameters:
    ///   - serviceURL: the service's public URL with its base path (`orders serve --public-url`).
    ///   - allowed: other URLs an order type's versions may name (`--allow-web-service-url`).
    public init(serviceURL: String?, allowed: [String: Set<String>] = [:]) {
        self.serviceURL = serviceURL
        self.allowed = allowed
    }

    /// Whether a version of `orderTypeIdentifier` may name `url`: the service's own, or one the
    /// operator allowed for the type. Compared exactly, as devices use it.
    public func permits(_ url: String, for orderTypeIdentifier: String) -> Bool {
        url == serviceURL || allowed[orderTypeIdentifier]?.contains(url) == true
    }

    /// Parses `TYPE=URL`, as `--allow-web-service-url` takes it; the URL must be absolute `https`
    /// with a host, end with `/`, and carry no user, query or fragment.
    public static func allowance(_ text: String) -> (orderTypeIdentifier: String, url: String)? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let type = String(text[..<equals])
        let url = String(text[text.index(after: equals)...])
        guard !type.isEmpty, isServiceURL(url) else { return nil }
        return (type, url)
    }

    /// Whether `url` can be an order's web service URL: `https://host[:port]/[path/]`, printable
    /// ASCII, no user, query or fragment.
    public static func isServiceURL(_ url: String) -> Bool {
        let prefix = "https://"
        guard url.lowercased().hasPrefix(prefix), url.hasSuffix("/"),
            url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), !url.contains(where: { "?#@\\".contains($0) })
        else { return false }
        let host = url.dropFirst(prefix.count).prefix { $0 != "/" && $0 != ":" }
        return !host.isEmpty && !url.dropFirst(prefix.count).contains("//")
    }
}
