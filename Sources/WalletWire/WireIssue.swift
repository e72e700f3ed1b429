import OrderPackage
import WalletPrimitives

/// A problem, as `{"code": …, "message": …, "path": …}`: a verification finding or an error.
/// `code` is stable (docs/error-codes.md); `path` is a JSON path or an archive entry, or null.
public struct WireIssue: Codable, Sendable, Hashable {
    public var code: String
    public var message: String
    @Nullable public var path: String?

    public init(code: String, message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    public init(_ issue: VerificationIssue) {
        self.init(code: issue.code.rawValue, message: issue.message, path: issue.path)
    }

    /// Any error: a ``WalletPrimitives/WalletError`` keeps its code, message and path; anything
    /// else is `error` with its description.
    public init(error: any Error) {
        if let error = error as? any WalletError {
            self.init(code: error.code, message: error.message, path: error.path)
        } else {
            self.init(code: "error", message: String(describing: error))
        }
    }
}
