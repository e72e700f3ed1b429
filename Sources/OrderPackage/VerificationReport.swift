import Foundation
import WalletPrimitives

/// The verdict on one order package: valid or not, every error and warning, and the facts a
/// backend needs to store or route it.
///
/// ```swift
/// let report = OrderVerifier().verify(archiveBytes)
/// guard report.isValid else {
///     for error in report.errors { print(error.code.rawValue, error.path ?? "", error.message) }
///     return
/// }
/// print(report.orderTypeIdentifier!, report.orderIdentifier!, report.teamIdentifier ?? "?")
/// ```
public struct VerificationReport: Sendable, Codable {
    /// Problems that reject the package, in pipeline order: archive, manifest, signature, order.
    public var errors: [VerificationIssue]
    /// Remarks that do not reject it.
    public var warnings: [VerificationIssue]
    /// The decoded order when `order.json` is valid (even if another stage failed).
    public var order: Order?
    /// Identifying fields of `order.json`, read best-effort even when it is invalid.
    public var summary: OrderSummary
    /// Who signed, when the signature could be parsed and its signer located.
    public var signer: SignerFacts?
    /// The CMS signingTime attribute, if present.
    public var signingTime: Date?
    /// The instant certificate validity was judged at, when it was judged.
    public var verificationTime: Date?
    /// Lowercase hex SHA-256 of the archive bytes; empty when the archive was not read because it
    /// is over the size limit.
    ///
    /// Computed the first time it is read (a full pass over the archive that verification itself
    /// does not need), so a report keeps the archive bytes until then.
    public var archiveSHA256: String {
        get { archiveDigest.value }
        set { archiveDigest = ArchiveDigest(hex: newValue) }
    }
    /// The `order.json` bytes exactly as in the archive, when present (not part of the encoded
    /// report).
    public var orderJSON: Data?
    private var archiveDigest: ArchiveDigest

    init(
        errors: [VerificationIssue] = [], warnings: [VerificationIssue] = [], order: Order? = nil,
        summary: OrderSummary = OrderSummary(), archiveDigest: ArchiveDigest
    ) {
        self.errors = errors
        self.warnings = warnings
        self.order = order
        self.summary = summary
        self.archiveDigest = archiveDigest
    }

    private enum CodingKeys: String, CodingKey {
        case errors, warnings, order, summary, signer, signingTime, verificationTime, archiveSHA256
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            errors: try container.decode([VerificationIssue].self, forKey: .errors),
            warnings: try container.decode([VerificationIssue].self, forKey: .warnings),
            order: try container.decodeIfPresent(Order.self, forKey: .order),
            summary: try container.decode(OrderSummary.self, forKey: .summary),
            archiveDigest: ArchiveDigest(hex: try container.decode(String.self, forKey: .archiveSHA256)))
        signer = try container.decodeIfPresent(SignerFacts.self, forKey: .signer)
        signingTime = try container.decodeIfPresent(Date.self, forKey: .signingTime)
        verificationTime = try container.decodeIfPresent(Date.self, forKey: .verificationTime)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(errors, forKey: .errors)
        try container.encode(warnings, forKey: .warnings)
        try container.encodeIfPresent(order, forKey: .order)
        try container.encode(summary, forKey: .summary)
        try container.encodeIfPresent(signer, forKey: .signer)
        try container.encodeIfPresent(signingTime, forKey: .signingTime)
        try container.encodeIfPresent(verificationTime, forKey: .verificationTime)
        try container.encode(archiveSHA256, forKey: .archiveSHA256)
    }

    /// Whether the package passed every check.
    public var isValid: Bool { errors.isEmpty }

    /// Adds each finding to ``errors`` or ``warnings`` by its code.
    mutating func add(_ findings: [some VerificationIssueConvertible]) {
        for finding in findings {
            if finding.issueCode.isError {
                errors.append(finding.issue)
            } else {
                warnings.append(finding.issue)
            }
        }
    }

    public var orderTypeIdentifier: String? { order?.orderTypeIdentifier ?? summary.orderTypeIdentifier }
    public var orderIdentifier: String? { order?.orderIdentifier ?? summary.orderIdentifier }
    public var createdAt: RFC3339Timestamp? { order?.createdAt ?? summary.createdAt.flatMap(RFC3339Timestamp.init) }
    public var updatedAt: RFC3339Timestamp? { order?.updatedAt ?? summary.updatedAt.flatMap(RFC3339Timestamp.init) }
    public var status: String? { order?.status.rawValue ?? summary.status }
    public var merchantDisplayName: String? { order?.merchant.displayName ?? summary.merchantDisplayName }
    /// The signing certificate's subject OU.
    public var teamIdentifier: String? { signer?.teamIdentifier }
    public var signerSubject: String? { signer?.subject }
    public var leafNotAfter: Date? { signer?.notAfter }

    /// Every finding, errors first.
    public var issues: [VerificationIssue] { errors + warnings }

    /// The distinct codes of the errors, in first-seen order.
    public var errorCodes: [VerificationIssue.Code] {
        var seen: Set<VerificationIssue.Code> = []
        return errors.map(\.code).filter { seen.insert($0).inserted }
    }
}

extension VerificationReport {
    /// The verdict on an archive that was not read because it is over `limit` bytes: one
    /// `archive.tooLarge` error, no hash. `size` is the archive's size when known (a regular
    /// file); a stream is read only to one byte past the limit.
    ///
    /// ```swift
    /// let report = VerificationReport(oversizedArchiveOf: attributes.size, limit: verifier.limits.maximumArchiveSize)
    /// ```
    public init(oversizedArchiveOf size: Int?, limit: Int) {
        self.init(errors: [ArchiveError.archiveTooLarge(size: size, limit: limit).issue], archiveDigest: ArchiveDigest(hex: ""))
    }
}
