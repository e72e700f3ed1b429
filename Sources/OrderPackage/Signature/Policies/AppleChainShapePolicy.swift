/// Exactly leaf → intermediate → root, as `SecPolicyCreateOrderBundleSigner` requires.
struct AppleChainShapePolicy: SignerChainPolicy {
    func violations(of chain: [X509Certificate]) -> [SignatureError] {
        guard chain.count != 3 else { return [] }
        let shape = chain.map(\.subjectDescription).joined(separator: " → ")
        return [
            .notOrderTypeCertificate(
                reason: "the chain has \(chain.count) certificates (\(shape)); Apple requires leaf → WWDR intermediate → root")
        ]
    }
}
