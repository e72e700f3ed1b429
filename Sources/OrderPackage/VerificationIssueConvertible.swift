/// A typed problem from one layer (archive, manifest, signature, order) that becomes a
/// ``VerificationIssue`` in a report.
public protocol VerificationIssueConvertible: Sendable {
    var code: VerificationIssue.Code { get }
    var message: String { get }
    /// A JSON path or entry name, or nil for the archive as a whole.
    var path: String? { get }
}

extension VerificationIssueConvertible {
    public var issue: VerificationIssue {
        VerificationIssue(code: code, message: message, path: path)
    }
}
