import Foundation

/// Every certificate of the chain is within its validity at the instant, judged as OpenSSL judges
/// it (``X509Certificate/isWithinValidity(for:)``); the first one outside, from the root down (the
/// order OpenSSL checks them in), is reported.
struct ValidityPolicy: SignerChainPolicy {
    let instant: Date

    func violations(of chain: [X509Certificate]) -> [SignatureError] {
        guard let outside = chain.reversed().first(where: { !$0.isWithinValidity(for: instant) }) else { return [] }
        return [
            .certificateExpired(
                subject: outside.subjectDescription, notBefore: outside.notBefore, notAfter: outside.notAfter, at: instant)
        ]
    }
}
