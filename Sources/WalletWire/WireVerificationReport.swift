import Foundation
import OrderPackage

/// `orders verify --json`: one archive's verdict and what it says about itself.
public struct WireVerificationReport: Codable, Sendable, Hashable {
    /// The file (or upload) the report is about.
    public var file: String
    public var valid: Bool
    public var errors: [WireIssue]
    public var warnings: [WireIssue]
    public var orderTypeIdentifier: String?
    public var orderIdentifier: String?
    public var createdAt: String?
    public var updatedAt: String?
    public var status: String?
    public var merchant: String?
    public var teamIdentifier: String?
    public var signerSubject: String?
    public var signingTime: Date?
    public var leafNotAfter: Date?
    public var archiveSHA256: String?

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

    private enum CodingKeys: String, CodingKey {
        case file, valid, errors, warnings, orderTypeIdentifier, orderIdentifier, createdAt, updatedAt, status, merchant
        case teamIdentifier, signerSubject, signingTime, leafNotAfter, archiveSHA256
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(valid, forKey: .valid)
        try container.encode(errors, forKey: .errors)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(orderTypeIdentifier, forKey: .orderTypeIdentifier)
        try container.encode(orderIdentifier, forKey: .orderIdentifier)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(status, forKey: .status)
        try container.encode(merchant, forKey: .merchant)
        try container.encode(teamIdentifier, forKey: .teamIdentifier)
        try container.encode(signerSubject, forKey: .signerSubject)
        try container.encode(signingTime, forKey: .signingTime)
        try container.encode(leafNotAfter, forKey: .leafNotAfter)
        try container.encode(archiveSHA256, forKey: .archiveSHA256)
    }
}
