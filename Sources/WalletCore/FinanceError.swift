import Foundation
import WalletPrimitives

/// FinanceKit's errors, with its names. Server-only failures (a client that is not authorized, a
/// data type this deployment does not provide, an unknown account) are ``FinanceAccessError``s,
/// so that "no data" and "no access" stay distinguishable.
public enum FinanceError: Error, CustomNSError, LocalizedError, Equatable, Hashable, Sendable {
    /// Access to this data type is restricted for now (maintenance, policy). Nothing was read or
    /// changed; retry later and keep state and tokens.
    case dataRestricted(DataType)
    /// A history token points into compacted history, belongs to another stream, or its cursor
    /// was deleted (access revoked). Discard it and start over with `since: nil`.
    case historyTokenInvalid
    case unknown

    /// Stable code.
    public var code: String {
        switch self {
        case .dataRestricted: "finance.dataRestricted"
        case .historyTokenInvalid: "finance.historyTokenInvalid"
        case .unknown: "finance.unknown"
        }
    }

    public static var errorDomain: String { "WalletCore.FinanceError" }

    public var errorCode: Int {
        switch self {
        case .dataRestricted: 1
        case .historyTokenInvalid: 2
        case .unknown: 0
        }
    }

    public var errorDescription: String? {
        switch self {
        case .dataRestricted(let type): "access to \(type.rawValue) is restricted for now; try again later"
        case .historyTokenInvalid: "the history token is no longer valid; start again without a token"
        case .unknown: "an unknown error occurred"
        }
    }
}

extension FinanceError: WalletError {
    public var message: String { errorDescription ?? code }

    public var category: ErrorCategory {
        switch self {
        case .dataRestricted: .restricted
        case .historyTokenInvalid: .invalidInput
        case .unknown: .storage
        }
    }
}
