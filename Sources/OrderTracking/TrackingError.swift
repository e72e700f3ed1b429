import Foundation
import WalletPrimitives

/// Why a tracking event was refused. Every case names the problem and, where there is one, the
/// place: a JSON path in the body or a header.
public enum TrackingError: WalletError, Equatable {
    /// The body is larger than ``TrackingLimits/maximumBodySize``.
    case bodyTooLarge(size: Int, limit: Int)
    /// The body is not what the provider sends: not JSON, a required field missing or of the
    /// wrong type, a value out of range.
    case invalidBody(path: String, reason: String)
    /// The provider's event is of a kind the service does not apply (e.g. EasyPost's
    /// `batch.created`); acknowledged and recorded, never an error to retry.
    case unsupportedEvent(String)
    /// The provider's signature header is missing.
    case unsigned(header: String)
    /// The signature matches none of the endpoint's secrets (wrong secret, or the body was
    /// changed on the way).
    case badSignature(header: String)
    /// The body's signed timestamp is further from now than the provider's rule allows (a
    /// replayed body).
    case stale(path: String, age: Duration, limit: Duration)
    /// No endpoint of this provider has the identifier in the path (never configured, removed,
    /// or another provider's).
    case unknownEndpoint(String)
    /// An endpoint cannot be configured so (`orders tracking add`): the reason says what to change.
    case invalidConfiguration(reason: String)

    public var code: String {
        switch self {
        case .bodyTooLarge: "tracking.bodyTooLarge"
        case .invalidBody: "tracking.invalidBody"
        case .unsupportedEvent: "tracking.unsupportedEvent"
        case .unsigned: "tracking.unsigned"
        case .badSignature: "tracking.badSignature"
        case .stale: "tracking.stale"
        case .unknownEndpoint: "tracking.unknownEndpoint"
        case .invalidConfiguration: "tracking.invalidConfiguration"
        }
    }

    public var message: String {
        switch self {
        case .bodyTooLarge(let size, let limit):
            "the body is \(size) bytes; at most \(limit) are accepted"
        case .invalidBody(let path, let reason):
            // The path is ``path``: printed beside the message, never twice.
            path.isEmpty ? "the body is not a valid event: \(reason)" : reason
        case .unsupportedEvent(let name):
            "events of kind \(MessageText.quote(name)) are not applied"
        case .unsigned(let header):
            "the \(header) header is missing: the body is not signed"
        case .badSignature(let header):
            "the \(header) header does not match the body under any of this endpoint's secrets"
        case .stale(_, let age, let limit):
            "the body's signed time is \(Int(age.components.seconds)) s away from now; at most \(Int(limit.components.seconds)) s are accepted (a replayed body?)"
        case .unknownEndpoint(let identifier):
            "no tracking endpoint of this provider is named \(MessageText.quote(identifier)) (`orders tracking list` shows them)"
        case .invalidConfiguration(let reason):
            reason
        }
    }

    public var path: String? {
        switch self {
        case .invalidBody(let path, _), .stale(let path, _, _): path.isEmpty ? nil : path
        case .unsigned(let header), .badSignature(let header): header
        case .bodyTooLarge, .unsupportedEvent, .unknownEndpoint, .invalidConfiguration: nil
        }
    }

    public var category: ErrorCategory {
        switch self {
        case .unsigned, .badSignature, .stale: .unauthorized
        case .bodyTooLarge, .invalidBody, .unsupportedEvent, .invalidConfiguration: .invalidInput
        case .unknownEndpoint: .notFound
        }
    }
}
