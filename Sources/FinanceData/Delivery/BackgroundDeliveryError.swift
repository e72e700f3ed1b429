import Foundation
import WalletPrimitives

/// Why a background-delivery registration was refused. Nothing was stored.
public enum BackgroundDeliveryError: Error, Sendable, Hashable {
    /// The URL is malformed, too long, or not `https` (``WebhookURL``).
    case invalidURL(String)
    /// The URL's host is, or resolves to, an address deliveries may not go to: loopback,
    /// private, link-local, a cloud metadata service (unless the operator allows private
    /// addresses), or it does not resolve at all.
    case urlNotAllowed(String)
    /// The client already has as many delivery endpoints as allowed.
    case tooManyEndpoints(limit: Int)
    /// The registration asks for nothing: no data types.
    case noDataTypes
    /// No endpoint has this id (operators' `show`).
    case unknownEndpoint(String)

    /// Stable code.
    public var code: String {
        switch self {
        case .invalidURL: "delivery.invalidURL"
        case .urlNotAllowed: "delivery.urlNotAllowed"
        case .tooManyEndpoints: "delivery.tooManyEndpoints"
        case .noDataTypes: "delivery.noDataTypes"
        case .unknownEndpoint: "delivery.unknownEndpoint"
        }
    }
}

extension BackgroundDeliveryError: WalletError {
    public var message: String {
        switch self {
        case .invalidURL(let why): "the delivery URL is invalid: \(why)"
        case .urlNotAllowed(let why): "deliveries may not go to this URL: \(why)"
        case .tooManyEndpoints(let limit): "the client already has \(limit) delivery endpoints, the most allowed"
        case .noDataTypes: "name at least one data type: accounts, accountBalances, transactions"
        case .unknownEndpoint(let id): "no delivery endpoint \(MessageText.quote(id))"
        }
    }

    public var path: String? {
        switch self {
        case .invalidURL, .urlNotAllowed: "url"
        case .noDataTypes: "types"
        default: nil
        }
    }

    public var category: ErrorCategory {
        switch self {
        case .invalidURL, .urlNotAllowed, .noDataTypes: .invalidInput
        case .tooManyEndpoints: .conflict
        case .unknownEndpoint: .notFound
        }
    }
}
