import Foundation
import WalletPrimitives

/// Failures a server has and a device does not: who is asking, and what this deployment offers.
/// Kept apart from ``FinanceError`` so that operators can tell "no data" from "no access".
public enum FinanceAccessError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The client has not been authorized for financial data (status `notDetermined` or `denied`).
    case notAuthorized(ClientIdentifier, status: AuthorizationStatus)
    /// This deployment does not provide the data type. On a device this terminates the app; a
    /// server throws instead and logs it at error level, because it is a programming error.
    case dataTypeUnavailable(DataType)
    /// The account does not exist, or is not shared with this client.
    case unknownAccount(UUID)
    /// The client is not entitled to orders of this type (saving is refused; checking answers
    /// `notFound`, as FinanceKit does).
    case notEntitled(ClientIdentifier, orderTypeIdentifier: String)

    /// Stable code.
    public var code: String {
        switch self {
        case .notAuthorized: "access.notAuthorized"
        case .dataTypeUnavailable: "access.dataTypeUnavailable"
        case .unknownAccount: "access.unknownAccount"
        case .notEntitled: "access.notEntitled"
        }
    }

    public var description: String {
        switch self {
        case .notAuthorized(let client, let status):
            "client \(client) is not authorized for financial data (status \(status.rawValue)); the data's owner grants "
                + "access with `orders access grant --client \(client) --account ID[:EARLIEST-DATE]` "
                + "(or WalletStore.grant(_:to:)), or answers the client's `orders access request`"
        case .dataTypeUnavailable(let type):
            "this deployment does not provide \(type.rawValue)"
        case .unknownAccount(let id):
            "no account \(id.uuidString) is shared with this client"
        case .notEntitled(let client, let orderTypeIdentifier):
            "client \(client) is not entitled to orders of type \(orderTypeIdentifier)"
        }
    }
}

extension FinanceAccessError: WalletError {
    public var message: String { description }

    public var category: ErrorCategory {
        switch self {
        case .notAuthorized, .notEntitled: .unauthorized
        case .dataTypeUnavailable: .unavailable
        case .unknownAccount: .notFound
        }
    }
}
