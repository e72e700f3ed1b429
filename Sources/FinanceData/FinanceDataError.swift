import Foundation
import WalletPrimitives

/// Why financial data could not be imported. Nothing of the batch or feed was stored.
public enum FinanceDataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The feed is not JSON, or a record does not have the expected shape (`path` names it).
    case invalidFeed(path: String, reason: String)
    /// A balance or transaction refers to an account that does not exist.
    case unknownAccountReference(String, accountID: UUID)
    /// A record contradicts itself or its account (currencies, negative amounts, missing parts).
    case inconsistentRecord(String, reason: String)
    /// The feed is over the size limit (`size` is nil when it was not read to its end). Nothing
    /// of it was read further.
    case feedTooLarge(size: Int?, limit: Int)

    /// Stable code.
    public var code: String {
        switch self {
        case .invalidFeed: "feed.invalid"
        case .unknownAccountReference: "feed.unknownAccount"
        case .inconsistentRecord: "feed.inconsistentRecord"
        case .feedTooLarge: "feed.tooLarge"
        }
    }

    public var description: String {
        switch self {
        case .invalidFeed(let path, let reason): path.isEmpty ? reason : "\(path): \(reason)"
        case .unknownAccountReference(let record, let accountID):
            "\(record) refers to account \(accountID.uuidString), which does not exist"
        case .inconsistentRecord(let record, let reason): "\(record): \(reason)"
        case .feedTooLarge(let size?, let limit): "the feed is \(size) bytes; the limit is \(limit) bytes"
        case .feedTooLarge(nil, let limit): "the feed is larger than the limit of \(limit) bytes"
        }
    }
}

extension FinanceDataError: WalletError {
    public var message: String {
        switch self {
        case .invalidFeed(_, let reason): reason
        default: description
        }
    }

    public var path: String? {
        if case .invalidFeed(let path, _) = self, !path.isEmpty { return path }
        return nil
    }

    public var category: ErrorCategory { .invalidInput }
}
