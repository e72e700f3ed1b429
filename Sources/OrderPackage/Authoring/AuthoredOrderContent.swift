import Foundation
import WalletPrimitives

/// An authored order.json with the fields the service owns applied to what the merchant sent
/// (docs/authoring.md, "What the service owns"):
///
/// - `orderTypeIdentifier` and `orderIdentifier` are the request's; sent, they must match.
/// - `createdAt` is the first version's for good (sent differently: refused); a first version
///   without one is created now.
/// - `updatedAt` is the service's, whatever was sent: `max(now, stored + 1 ms)` in whole
///   milliseconds, so each version is strictly later than the one it replaces even when clocks of
///   several instances disagree (a later instance whose clock is behind still moves forward).
/// - `webServiceURL` is the service's public URL, or one the operator allowed for the order type
///   (``WebServiceURLPolicy``): sent otherwise, refused; absent, the stored version's if the policy
///   permits it, else the service's.
/// - `authenticationToken`, when absent, is the stored version's, or a new one for a first
///   version (32 hex characters; Apple's minimum is 16). Sent, it replaces it (rotation). When
///   `webServiceURL` changes, the stored token never goes to the new URL: a sent token other than
///   the stored one, else a new one.
/// - A version without a `webServiceURL` is refused (``AuthoringError/publicURLRequired(orderTypeIdentifier:)``):
///   Apple Pay's `orderDetails` needs one.
public struct AuthoredOrderContent: Sendable {
    /// The order.json to sign: the merchant's members in their order, service-owned ones set.
    public let document: JSONValue
    public let updatedAt: RFC3339Timestamp
    public let authenticationToken: String?
    public let webServiceURL: String?

    /// The bytes of ``document``.
    public var orderJSON: Data { Data(document.serialized.utf8) }

    /// - Parameters:
    ///   - incoming: the whole new order.json (for a merge patch: the patch applied to the stored one).
    ///   - stored: the current version's order.json and `updatedAt`, nil for a first version.
    ///   - webService: which `webServiceURL` the version may name; its service URL when it names
    ///     none (nil: leave it absent).
    ///   - makeToken: a new authentication token, for a first version that brings none and for a
    ///     version whose `webServiceURL` changes.
    public init(
        _ incoming: JSONValue, orderTypeIdentifier: String, orderIdentifier: String,
        stored: (document: JSONValue, updatedAt: RFC3339Timestamp)?, now: Date, webService: WebServiceURLPolicy,
        makeToken: () -> String = AuthoredOrderContent.newToken
    ) throws(AuthoringError) {
        guard case .object(var object) = incoming else {
            throw .invalidContent(reason: "order.json must be an object, not \(incoming.typeName)")
        }
        var storedObject = JSONObject()
        if case .object(let value)? = stored?.document { storedObject = value }

        for (field, expected) in [("orderTypeIdentifier", orderTypeIdentifier), ("orderIdentifier", orderIdentifier)] {
            if let given = object[field], given != .string(expected) {
                throw .identifierMismatch(field: field, given: given.serialized, expected: expected)
            }
            object[field] = .string(expected)
        }

        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1_000).rounded(.down))
        if stored != nil, let storedCreatedAt = storedObject["createdAt"] {
            if let given = object["createdAt"], given != storedCreatedAt {
                throw .immutableField(field: "createdAt", stored: storedCreatedAt.serialized)
            }
            object["createdAt"] = storedCreatedAt
        } else if object["createdAt"] == nil || object["createdAt"] == .null {
            object["createdAt"] = .string(RFC3339Timestamp(millisecondsSinceEpoch: nowMilliseconds).text)
        }

        let floor = stored.map { $0.updatedAt.millisecondsSinceEpoch + 1 } ?? .min
        let updatedAt = RFC3339Timestamp(millisecondsSinceEpoch: max(nowMilliseconds, floor))
        object["updatedAt"] = .string(updatedAt.text)

        let storedURL = storedObject["webServiceURL"]
        let url: JSONValue?
        switch object["webServiceURL"] {
        case .string(let given)? where object["webServiceURL"] != storedURL:
            guard webService.permits(given, for: orderTypeIdentifier) else {
                throw .webServiceURLNotAllowed(given: given, serviceURL: webService.serviceURL)
            }
            url = .string(given)
        case nil, .null?, .string?:  // absent, or the stored one carried over (a patch, a whole order.json)
            if case .string(let stored)? = storedURL, webService.permits(stored, for: orderTypeIdentifier) {
                url = storedURL
            } else {
                url = webService.serviceURL.map(JSONValue.string)
            }
        case let other?:
            url = other  // not a string: order.json's validation refuses it at its path
        }
        // Apple Pay's orderDetails and every device need a web service: a version without one
        // could be handed to a payment sheet that refuses it, or held by devices that never update.
        guard let url else {
            throw .publicURLRequired(orderTypeIdentifier: orderTypeIdentifier)
        }

        let storedToken = storedObject["authenticationToken"]
        var token = object["authenticationToken"]
        if token == .null { token = nil }
        if case .string? = storedURL, url != storedURL, token == nil || token == storedToken {
            token = .string(makeToken())  // the stored token never goes to another URL
        }
        object["authenticationToken"] = token ?? storedToken ?? .string(makeToken())
        object["webServiceURL"] = url
        document = .object(object)
        self.updatedAt = updatedAt
        if case .string(let token)? = object["authenticationToken"] {
            authenticationToken = token
        } else {
            authenticationToken = nil
        }
        if case .string(let url)? = object["webServiceURL"] { webServiceURL = url } else { webServiceURL = nil }
    }

    /// 32 lowercase hex characters from the system's random source.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return SHA256Digest.hexString((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

/// Why an authored order was refused before anything was signed. Codes are stable
/// (docs/error-codes.md).
public enum AuthoringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is not JSON, or not an object, or a merge patch that is not an object.
    case invalidContent(reason: String)
    /// `orderTypeIdentifier` or `orderIdentifier` differs from the request's.
    case identifierMismatch(field: String, given: String, expected: String)
    /// A field that cannot change after the first version (`createdAt`) was sent changed.
    case immutableField(field: String, stored: String)
    /// A patch for an order that is not stored.
    case orderNotFound(orderTypeIdentifier: String, orderIdentifier: String)
    /// Other writers kept storing newer versions while this one was being made.
    case contended(attempts: Int)
    /// `webServiceURL` names a URL that is neither the service's nor one the operator allowed
    /// for the order type (``WebServiceURLPolicy``).
    case webServiceURLNotAllowed(given: String, serviceURL: String?)
    /// The version would have no `webServiceURL`: the service has no public URL (`--public-url`)
    /// and the content names none the operator allowed for the type. Apple Pay's `orderDetails`
    /// requires one.
    case publicURLRequired(orderTypeIdentifier: String)
    /// A package file is named as one the service writes itself (`manifest.json`, `signature`).
    case reservedFileName(String)
    /// The content was made against a version (its `archiveSHA256`) that is no longer current.
    case versionChanged(basis: String)

    public var description: String {
        switch self {
        case .invalidContent(let reason): reason
        case .identifierMismatch(let field, let given, let expected):
            "\(field) is \(MessageText.visible(given)), but the request is for \(expected.debugDescription)"
        case .immutableField(let field, let stored):
            "\(field) cannot change after the first version (stored: \(MessageText.visible(stored)))"
        case .orderNotFound(let type, let id):
            "no order \(type.debugDescription) \(id.debugDescription) is stored to patch (PUT its content first)"
        case .contended(let attempts): "newer versions kept arriving; gave up after \(attempts) attempts"
        case .webServiceURLNotAllowed(let given, let serviceURL):
            "webServiceURL is \(MessageText.quote(given)), but devices holding this service's orders go to "
                + (serviceURL.map { "its own URL \(MessageText.quote($0))" } ?? "the service's public URL (none is configured)")
                + "; leave webServiceURL out, or ask the operator to allow that URL for the order type"
        case .publicURLRequired(let type):
            "the service has no public URL for devices and Apple Pay (start it with --public-url), "
                + "and webServiceURL names none the operator allowed for \(type.debugDescription)"
        case .versionChanged(let basis):
            "the order changed since version \(basis.prefix(12)) that this change was made against; look at it again"
        case .reservedFileName(let name):
            "\(MessageText.quote(name)) is written by the service when it signs (manifest.json, signature); "
                + "send order.json and the files it names"
        }
    }
}

extension AuthoringError: WalletError {
    public var code: String {
        switch self {
        case .invalidContent: "authoring.invalidContent"
        case .identifierMismatch: "authoring.identifierMismatch"
        case .immutableField: "authoring.immutableField"
        case .orderNotFound: "authoring.orderNotFound"
        case .contended: "authoring.contended"
        case .webServiceURLNotAllowed: "authoring.webServiceURLNotAllowed"
        case .reservedFileName: "authoring.reservedFileName"
        case .publicURLRequired: "authoring.publicURLRequired"
        case .versionChanged: "authoring.versionChanged"
        }
    }

    public var message: String { description }

    public var path: String? {
        switch self {
        case .identifierMismatch(let field, _, _), .immutableField(let field, _): field
        case .webServiceURLNotAllowed, .publicURLRequired: "webServiceURL"
        case .reservedFileName(let name): name
        default: nil
        }
    }

    public var category: ErrorCategory {
        switch self {
        case .invalidContent, .identifierMismatch, .immutableField, .webServiceURLNotAllowed, .reservedFileName: .invalidInput
        case .orderNotFound: .notFound
        case .contended, .versionChanged: .conflict
        case .publicURLRequired: .unavailable
        }
    }
}
