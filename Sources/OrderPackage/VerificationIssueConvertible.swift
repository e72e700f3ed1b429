import WalletPrimitives

/// A typed problem from one layer (archive, manifest, signature, order) that becomes a
/// ``VerificationIssue`` in a report.
public protocol VerificationIssueConvertible: WalletError {
    /// The finding's code, typed; ``WalletError/code`` is its raw value.
    var issueCode: VerificationIssue.Code { get }
    var message: String { get }
    /// A JSON path or entry name, or nil for the archive as a whole.
    var path: String? { get }
}

extension VerificationIssueConvertible {
    public var code: String { issueCode.rawValue }

    /// Findings are about the archive the caller gave.
    public var category: ErrorCategory { .invalidInput }

    public var issue: VerificationIssue {
        VerificationIssue(code: issueCode, message: message, path: path)
    }
}
