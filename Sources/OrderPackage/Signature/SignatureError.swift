import Foundation
import WalletPrimitives

/// A problem with the `signature` entry, its certificates, or the signer policy.
public enum SignatureError: Error, Sendable, Hashable, VerificationIssueConvertible {
    case invalidCMS(reason: String)
    case unsupportedDigest(algorithm: String)
    case unsupportedAlgorithm(algorithm: String, digest: String)
    case mismatch(reason: String)
    case untrustedChain(reason: String)
    case certificateExpired(subject: String, notBefore: Date?, notAfter: Date?, at: Date)
    case notOrderTypeCertificate(reason: String)
    case typeIdentifierMismatch(certificate: String, order: String)
    case missingSigningTime

    public var issueCode: VerificationIssue.Code {
        switch self {
        case .invalidCMS: .signatureInvalidCMS
        case .unsupportedDigest: .signatureUnsupportedDigest
        case .unsupportedAlgorithm: .signatureUnsupportedAlgorithm
        case .mismatch: .signatureMismatch
        case .untrustedChain: .signatureUntrustedChain
        case .certificateExpired: .signatureCertificateExpired
        case .notOrderTypeCertificate: .signatureNotOrderTypeCertificate
        case .typeIdentifierMismatch: .signatureTypeIdentifierMismatch
        case .missingSigningTime: .signatureMissingSigningTime
        }
    }

    public var message: String {
        switch self {
        case .invalidCMS(let reason):
            return "the signature is not a CMS SignedData of the accepted shape: \(reason)"
        case .unsupportedDigest(let algorithm):
            return "the signer used the digest \(algorithm); SHA-256, SHA-384 or SHA-512 is required"
        case .unsupportedAlgorithm(let algorithm, let digest):
            return
                "the signature algorithm is \(algorithm) (with the digest \(digest)); rsaEncryption, or "
                + "sha256WithRSAEncryption with SHA-256, is required"
        case .mismatch(let reason):
            return "the signature does not match manifest.json: \(reason)"
        case .untrustedChain(let reason):
            return "the signing certificate does not chain to a trusted root: \(reason)"
        case .certificateExpired(let subject, let notBefore, let notAfter, let at):
            let instant = RFC3339Timestamp.format(at)
            if let notBefore, at < notBefore {
                return
                    "the certificate \(MessageText.quote(subject)) is not valid before \(RFC3339Timestamp.format(notBefore)) (checked at \(instant))"
            }
            let end = notAfter.map(RFC3339Timestamp.format) ?? "an unreadable date"
            return "the certificate \(MessageText.quote(subject)) expired at \(end) (checked at \(instant))"
        case .notOrderTypeCertificate(let reason):
            return "the signer is not an Apple Order Type ID certificate: \(reason)"
        case .typeIdentifierMismatch(let certificate, let order):
            return
                "the certificate is for \(MessageText.quote(certificate)), but order.json's orderTypeIdentifier is \(MessageText.quote(order))"
        case .missingSigningTime:
            return "verification at signing time was requested, but the signature has no signingTime attribute"
        }
    }

    public var path: String? { Manifest.signatureFileName }
}
