import OrderPackage
import OrderStorage

/// What happened to one archive given to `orders add` (or uploaded): the `SaveOrderResult`, or
/// `error` with the code, message and, for an invalid archive, every finding.
public struct WireSaveOutcome: Codable, Sendable, Hashable {
    public var file: String
    /// `added`, `cancelled`, `newerExisting`, or `error`.
    public var result: String
    public var code: String?
    public var message: String?
    public var errors: [WireIssue]
    public var orderTypeIdentifier: String?
    public var orderIdentifier: String?
    public var updatedAt: String?

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

    private enum CodingKeys: String, CodingKey {
        case file, result, code, message, errors, orderTypeIdentifier, orderIdentifier, updatedAt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(result, forKey: .result)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encode(errors, forKey: .errors)
        try container.encode(orderTypeIdentifier, forKey: .orderTypeIdentifier)
        try container.encode(orderIdentifier, forKey: .orderIdentifier)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
