import Foundation
import OrderPackage
import OrderStorage
import WalletConsent
import WalletPrimitives

/// A link to an order's customer page (`GET /orders/{type}/{id}` on `orders serve`) that only
/// whoever holds the order's `authenticationToken` can make: the path names the order, the query
/// an expiry and an HMAC-SHA256 of both keyed with that token. The merchant makes links (with
/// `orders link`, from the merchant API's answer to a PUT, or with this type and the token it
/// already has); the server checks them against the stored version's token. A new version with
/// a new token ends every older link; so does the expiry.
///
/// ```swift
/// let link = OrderPageLink(
///     for: FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "ORDER-123"),
///     authenticationToken: token, expires: Date().addingTimeInterval(30 * 86_400))
/// print("https://orders.example.com" + link.path)
/// ```
public struct OrderPageLink: Sendable, Hashable {
    public var identifier: FullyQualifiedOrderIdentifier
    /// Whole seconds since 1970: the link works until then.
    public var expires: Int64
    /// base64url (no padding) of the HMAC-SHA256.
    public var signature: String

    /// The longest a link may live: a link in an email outlives the email.
    public static let maximumLifetime: TimeInterval = 400 * 86_400

    /// How long the link a saved or authored version is answered with works (the merchant API's
    /// `customerPage`, `orders author --json`).
    public static let answerLifetime: TimeInterval = 30 * 86_400

    /// The path of a version's customer page, signed with its token and valid for
    /// ``answerLifetime`` from `now`; nil for a version without a token, for which none can be made.
    public static func answerPath(
        for identifier: FullyQualifiedOrderIdentifier, authenticationToken: String?, now: Date
    ) -> String? {
        authenticationToken.map {
            OrderPageLink(for: identifier, authenticationToken: $0, expires: now.addingTimeInterval(answerLifetime)).path
        }
    }

    public init(identifier: FullyQualifiedOrderIdentifier, expires: Int64, signature: String) {
        self.identifier = identifier
        self.expires = expires
        self.signature = signature
    }

    /// A new link, signed with the order's token.
    public init(for identifier: FullyQualifiedOrderIdentifier, authenticationToken: String, expires: Date) {
        let seconds = Int64(expires.timeIntervalSince1970.rounded(.down))
        self.init(
            identifier: identifier, expires: seconds,
            signature: Self.signature(identifier, expires: seconds, authenticationToken: authenticationToken))
    }

    /// `/orders/{type}/{id}?expires=…&signature=…`, each identifier percent-encoded as one
    /// path segment.
    public var path: String { orderPath + query }

    /// `/orders/{type}/{id}/archive?…`: the signed archive itself (Add to Apple Wallet).
    public var archivePath: String { orderPath + "/archive" + query }

    private var orderPath: String {
        "/orders/\(PercentEncoding.encode(identifier.orderTypeIdentifier))/\(PercentEncoding.encode(identifier.orderIdentifier))"
    }

    private var query: String { "?expires=\(expires)&signature=\(signature)" }

    /// Whether the link is this order's, signed with `authenticationToken`, and not expired at
    /// `time`. The comparison takes the same time whatever the signature holds.
    public func isValid(authenticationToken: String, at time: Date) -> Bool {
        let expected = Self.signature(identifier, expires: expires, authenticationToken: authenticationToken)
        let matches = ConstantTime.equals(Array(signature.utf8), Array(expected.utf8))
        return matches && Double(expires) > time.timeIntervalSince1970
            && Double(expires) <= time.timeIntervalSince1970 + Self.maximumLifetime
    }

    /// The MAC of `wallet-orders page link v1`, the two identifiers and the expiry, one per line
    /// (an identifier holds no line feed: the order.json validator refuses control characters).
    static func signature(_ identifier: FullyQualifiedOrderIdentifier, expires: Int64, authenticationToken: String) -> String {
        let message = "wallet-orders page link v1\n\(identifier.orderTypeIdentifier)\n\(identifier.orderIdentifier)\n\(expires)"
        return Base64URL.encode(HMACSHA256.bytes(key: Array(authenticationToken.utf8), message: Data(message.utf8)))
    }
}
