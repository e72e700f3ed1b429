import Foundation
import OrderPackage

/// `orders verify --json`: one archive's verdict and what it says about itself.
public struct WireVerificationReport: Codable, Sendable, Hashable {
    /// The file (or upload) the report is about.
    public var file: String
    public var valid: Bool
    public var errors: [WireIssue]
    public var warnings: [WireIssue]
    @Nullable public var orderTypeIdentifier: String?
    @Nullable public var orderIdentifier: String?
    @Nullable public var createdAt: String?
    @Nullable public var updatedAt: String?
    @Nullable public var status: String?
    @Nullable public var merchant: String?
    @Nullable public var teamIdentifier: String?
    @Nullable public var signerSubject: String?
    @Nullable public var signingTime: Date?
    @Nullable public var leafNotAfter: Date?
    @Nullable public var archiveSHA256: String?

    public init(file: String, report: VerificationReport) {
        self.file = file
        valid = report.isValid
        errors = report.errors.map(WireIssue.init)
        warnings = report.warnings.map(WireIssue.init)
        orderTypeIdentifier = report.orderTypeIdentifier
        orderIdentifier = report.orderIdentifier
        createdAt = report.createdAt?.text
        updatedAt = report.updatedAt?.text
        status = report.status
        merchant = report.merchantDisplayName
        teamIdentifier = report.teamIdentifier
        signerSubject = report.signerSubject
        signingTime = report.signingTime
        leafNotAfter = report.leafNotAfter
        archiveSHA256 = report.archiveSHA256.isEmpty ? nil : report.archiveSHA256
    }
}
