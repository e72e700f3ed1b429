import OrderPackage
import OrderStorage

/// The body of every error the HTTP service answers: `{"error": {"code", "message", "path"}}`,
/// and for an archive that failed verification the whole report, as `orders verify --json`
/// prints it.
public struct WireError: Codable, Sendable, Hashable {
    public var error: WireIssue
    @Nullable public var report: WireVerificationReport?

    public init(_ error: any Error, file: String = "request body") {
        self.error = WireIssue(error: error)
        if case .invalidArchive(let report) = error as? OrderStoreError {
            self.report = WireVerificationReport(file: file, report: report)
        }
    }
}
