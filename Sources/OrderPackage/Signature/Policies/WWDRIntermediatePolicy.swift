import WalletPrimitives

/// The intermediate carries Apple's WWDR marker extension (1.2.840.113635.100.6.2.1). Judged only
/// on a chain of Apple's shape (``AppleChainShapePolicy`` reports the others).
struct WWDRIntermediatePolicy: SignerChainPolicy {
    static let marker = "1.2.840.113635.100.6.2.1"

    func violations(of chain: [X509Certificate]) -> [SignatureError] {
        guard chain.count == 3, !chain[1].hasExtension(oid: Self.marker) else { return [] }
        return [
            .notOrderTypeCertificate(
                reason:
                    "the intermediate \(MessageText.quote(chain[1].subjectDescription)) lacks the Apple WWDR marker \(Self.marker)"
            )
        ]
    }
}
