import Foundation

/// Where a client's background deliveries are posted: an absolute `https` (or, where the
/// operator allows it, `http`) URL with a host, no user name or password, no fragment, at most
/// 2,048 printable ASCII characters. Only its form is checked here; whether its host may be
/// reached is the ``DeliveryTargetPolicy``'s question, asked when it is registered and before
/// every delivery.
public struct WebhookURL: Sendable, Hashable, CustomStringConvertible {
    /// The longest URL accepted, in bytes.
    public static let maximumLength = 2_048

    /// The URL as registered.
    public let text: String
    /// The host, lowercased, without the brackets of an IPv6 literal.
    public let host: String
    /// The port, explicit or the scheme's.
    public let port: Int
    /// `https`, or `http`.
    public let isSecure: Bool
    /// The URL as Foundation's type.
    public let url: URL

    /// Checks the form of `text`.
    ///
    /// - Throws: ``BackgroundDeliveryError/invalidURL(_:)`` saying what is wrong.
    public init(_ text: String) throws(BackgroundDeliveryError) {
        guard !text.isEmpty else { throw .invalidURL("the URL is empty") }
        guard text.utf8.count <= Self.maximumLength else {
            throw .invalidURL("the URL is longer than \(Self.maximumLength) bytes")
        }
        guard text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .invalidURL("the URL holds a space, a control or a non-ASCII character")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .invalidURL("not an absolute URL")
        }
        guard scheme == "https" || scheme == "http" else { throw .invalidURL("the scheme must be https") }
        guard components.user == nil, components.password == nil else {
            throw .invalidURL("the URL must not hold a user name or password")
        }
        guard components.fragment == nil else { throw .invalidURL("the URL must not have a fragment") }
        var host = (components.host ?? "").lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .invalidURL("the URL has no host") }
        if let port = components.port, !(1...65_535).contains(port) { throw .invalidURL("the port is out of range") }
        guard let url = URL(string: text) else { throw .invalidURL("not an absolute URL") }
        self.url = url
        self.text = text
        self.host = host
        self.isSecure = scheme == "https"
        self.port = components.port ?? (isSecure ? 443 : 80)
    }

    public var description: String { text }
}
