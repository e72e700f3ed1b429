import Foundation

/// The instant at which certificate validity is judged.
public enum VerificationTime: Sendable, Hashable {
    /// The verifier's clock (the default, as Wallet does on ingest).
    case now
    /// The CMS `signingTime` attribute; an archive without one is rejected with
    /// `signature.missingSigningTime`. Useful when re-validating stored archives whose
    /// certificates have expired since.
    case signingTime
    /// A given instant.
    case at(Date)
}
