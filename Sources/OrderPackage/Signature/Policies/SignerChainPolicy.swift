import Foundation

/// One rule an order signer's certificate chain must satisfy, tried on each candidate chain
/// (swift-certificates' `VerifierPolicy` model): OpenSSL builds the candidates and checks their
/// signatures once; what Apple requires of them — validity at the instant, the chain's shape, the
/// WWDR intermediate, the Order Type ID leaf — is a policy each. A chain is accepted when no
/// policy finds a violation.
protocol SignerChainPolicy: Sendable {
    /// Why `chain` (leaf first, root last) does not satisfy the rule; empty when it does.
    func violations(of chain: [X509Certificate]) -> [SignatureError]
}

extension [any SignerChainPolicy] {
    /// Apple's policies for an order of type `orderTypeIdentifier` (nil when order.json could
    /// not supply one), with validity judged at `instant` (nil: not judged).
    static func orderSigner(orderTypeIdentifier: String?, instant: Date?) -> [any SignerChainPolicy] {
        var policies: [any SignerChainPolicy] = []
        if let instant { policies.append(ValidityPolicy(instant: instant)) }
        policies += [
            AppleChainShapePolicy(), WWDRIntermediatePolicy(), OrderTypeLeafPolicy(orderTypeIdentifier: orderTypeIdentifier),
        ]
        return policies
    }

    /// Every violation of `chain`, policy by policy.
    func violations(of chain: [X509Certificate]) -> [SignatureError] {
        flatMap { $0.violations(of: chain) }
    }
}
