import ArgumentParser
import Foundation
import WalletOrders
import WalletPrimitives

/// How a library error is told to the user: one line, and the documented exit status — in one
/// table for every command.
enum Failure {
    /// The exit status of each category.
    static func status(of category: ErrorCategory) -> Int32 {
        switch category {
        case .invalidInput, .notFound, .conflict: ExitStatus.invalid
        case .unauthorized: ExitStatus.notAuthorized
        case .restricted: ExitStatus.restricted
        case .unavailable: ExitStatus.unavailable
        case .storage: ExitStatus.usageOrIO
        }
    }

    /// Codes whose documented status is not their category's.
    static let statusByCode: [String: Int32] = [
        // `orders add` counts an order of a type the client may not save as rejected, like an
        // invalid archive (docs/cli.md, exit statuses of orders add).
        "access.notEntitled": ExitStatus.invalid,
        // A deployment that is configured wrong is a usage error, like a bad option.
        "configuration.invalid": ExitStatus.usageOrIO,
        "tracking.invalidConfiguration": ExitStatus.usageOrIO,
    ]

    /// What to do next, for codes where the message alone does not say.
    static let hintByCode: [String: String] = [
        "finance.historyTokenInvalid": "remove the token file to start over"
    ]

    static func status(of error: any WalletError) -> Int32 {
        statusByCode[error.code] ?? status(of: error.category)
    }

    /// `code: path: message (hint)`.
    static func line(_ error: any WalletError) -> String {
        let place = error.path.map { "\(MessageText.visible($0)): " } ?? ""
        let hint = hintByCode[error.code].map { " (\($0))" } ?? ""
        return "\(error.code): \(place)\(error.message)\(hint)"
    }

    /// The line and status for a library error; nil for anything else (usage errors).
    static func report(_ error: any Error) -> (message: String, status: Int32)? {
        guard let error = error as? any WalletError else { return nil }
        return (line(error), status(of: error))
    }

    /// The order of precedence when several files failed differently: an unusable store first,
    /// then what stops every file (unavailable, restricted, unauthorized), then rejections.
    static let precedence: [Int32] = [
        ExitStatus.usageOrIO, ExitStatus.unavailable, ExitStatus.restricted, ExitStatus.notAuthorized, ExitStatus.invalid,
    ]
}
