import Foundation

/// When one certificate of a signing identity stops being valid: the Order Type ID certificate
/// (a year after Apple issued it) or an intermediate embedded in every signature. What
/// `orders doctor`, the console and the service's metrics and daily warning watch.
public struct CertificateExpiry: Sendable, Hashable {
    /// The certificate's place in the identity.
    public enum Role: String, Sendable, Hashable, CaseIterable {
        /// The Order Type ID certificate that signs.
        case certificate
        /// An intermediate embedded in signatures (Apple's WWDR).
        case intermediate
    }

    /// How long before expiry the service warns (`orders doctor`, its daily log line, the
    /// console): 30 days, time enough to request a certificate from Apple and stage it.
    public static let warningDays = 30

    public let role: Role
    /// The subject, RFC 2253 (`CN=…,OU=…,O=…,C=US`).
    public let subject: String
    public let notAfter: Date

    public init(role: Role, subject: String, notAfter: Date) {
        self.role = role
        self.subject = subject
        self.notAfter = notAfter
    }

    /// Whole days from `now` until ``notAfter``, rounded down (negative once it has passed).
    public func daysLeft(at now: Date) -> Int {
        Int((notAfter.timeIntervalSince(now) / 86_400).rounded(.down))
    }

    /// The expiries of an identity as a store keeps it: its certificate's, then each
    /// intermediate's (PEM, one after the other). Certificates that cannot be read are left out.
    public static func of(certificatePEM: String, intermediatesPEM: String) -> [CertificateExpiry] {
        func read(_ pem: String, as role: Role) -> [CertificateExpiry] {
            guard !pem.isEmpty, let certificates = try? X509Certificate.certificates(pemOrDER: Data(pem.utf8)) else {
                return []
            }
            return certificates.compactMap { certificate in
                certificate.notAfter.map {
                    CertificateExpiry(role: role, subject: certificate.subjectDescription, notAfter: $0)
                }
            }
        }
        return Array(read(certificatePEM, as: .certificate).prefix(1)) + read(intermediatesPEM, as: .intermediate)
    }
}
