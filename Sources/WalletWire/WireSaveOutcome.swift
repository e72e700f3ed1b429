import OrderPackage
import OrderStorage

/// What happened to one archive given to `orders add` (or uploaded): the `SaveOrderResult`, or
/// `error` with the code, message and, for an invalid archive, every finding.
public struct WireSaveOutcome: Codable, Sendable, Hashable {
    public var file: String
    /// `added`, `cancelled`, `newerExisting`, or `error`.
    public var result: String
    @Nullable public var code: String?
    @Nullable public var message: String?
    public var errors: [WireIssue]
    @Nullable public var orderTypeIdentifier: String?
    @Nullable public var orderIdentifier: String?
    @Nullable public var updatedAt: String?

    /// A saved archive.
    public init(file: String, result: SaveOrderResult, report: VerificationReport) {
        self.file = file
        self.result = result.rawValue
        errors = []
        orderTypeIdentifier = report.orderTypeIdentifier
        orderIdentifier = report.orderIdentifier
        updatedAt = report.updatedAt?.text
    }

    /// An archive that was not saved: `error` (an `OrderStoreError.invalidArchive` carries its
    /// findings and what the archive says it is).
    public init(file: String, error: any Error) {
        self.file = file
        result = "error"
        let issue = WireIssue(error: error)
        code = issue.code
        message = issue.message
        errors = []
        if case .invalidArchive(let report) = error as? OrderStoreError {
            errors = report.errors.map(WireIssue.init)
            orderTypeIdentifier = report.orderTypeIdentifier
            orderIdentifier = report.orderIdentifier
            updatedAt = report.updatedAt?.text
        }
    }

    /// An archive that could not even be read (`io.unreadable`).
    public init(file: String, code: String, message: String) {
        self.file = file
        result = "error"
        self.code = code
        self.message = message
        errors = []
    }
}
