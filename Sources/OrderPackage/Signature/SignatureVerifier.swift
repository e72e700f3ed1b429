import Foundation
import WalletPrimitives

/// Verifies the detached CMS `signature` over `manifest.json`.
///
/// The checks follow docs/order-format.md §3.4: parse with the CMS API (signer identified by issuer
/// and serial number, or by subject key identifier), verify the signature math over the manifest
/// bytes as received, build the chain from the trust store's roots with its bundled WWDR
/// intermediates and the embedded certificates as untrusted candidates, judge validity at the
/// requested time, then apply ``OrderSignerPolicy``.
struct SignatureVerifier: Sendable {
    struct Outcome: Sendable {
        var signer: SignerFacts?
        var signingTime: Date?
        var errors: [SignatureError] = []
    }

    let trustStore: TrustStore
    let certificateCache: X509CertificateCache

    init(trustStore: TrustStore, certificateCache: X509CertificateCache = X509CertificateCache()) {
        self.trustStore = trustStore
        self.certificateCache = certificateCache
    }

    func verify(
        signature: Data,
        manifest: Data,
        orderTypeIdentifier: String?,
        time: VerificationTime,
        now: Date
    ) -> Outcome {
        var outcome = Outcome()
        do {
            try verify(signature, manifest, orderTypeIdentifier, time, now, into: &outcome)
        } catch {
            outcome.errors.append(.invalidCMS(reason: error.description))
        }
        return outcome
    }

    private func verify(
        _ signature: Data,
        _ manifest: Data,
        _ orderTypeIdentifier: String?,
        _ time: VerificationTime,
        _ now: Date,
        into outcome: inout Outcome
    ) throws(OpenSSLError) {
        // The documented shape, before OpenSSL sees anything (SignedDataLayout says why).
        let layout: SignedDataLayout
        do {
            layout = try SignedDataLayout(parsing: signature)
        } catch {
            outcome.errors.append(error)
            return
        }
        let cms: CMSContentInfo
        do {
            cms = try CMSContentInfo(der: layout.structure)
        } catch {
            outcome.errors.append(.invalidCMS(reason: "OpenSSL cannot parse it (\(error.reasons.first ?? "unparsable"))"))
            return
        }
        var embedded: [X509Certificate] = []
        for (position, der) in layout.certificates.enumerated() {
            guard let certificate = try? certificateCache.certificate(der: der) else {
                outcome.errors.append(
                    .invalidCMS(reason: "embedded certificate \(position + 1) is not a valid X.509 certificate"))
                return
            }
            embedded.append(certificate)
        }
        guard cms.signerCount == 1 else {
            outcome.errors.append(.invalidCMS(reason: "OpenSSL does not find exactly one signer"))
            return
        }
        outcome.signingTime = cms.signingTime

        // The math, apart from the chain: the messageDigest attribute (or the signature itself)
        // must match the manifest bytes exactly as received.
        let leaf: X509Certificate
        switch try cms.verifyDetached(content: manifest, certificates: embedded) {
        case .verified(let signer):
            leaf = signer
        case .signerCertificateMissing:
            outcome.errors.append(.untrustedChain(reason: "the signature does not include its signer's certificate"))
            return
        case .mismatch(let reasons):
            outcome.errors.append(.mismatch(reason: reasons.joined(separator: "; ")))
            return
        }
        var facts = SignerFacts(
            subject: leaf.subjectDescription,
            teamIdentifier: leaf.organizationalUnit,
            orderTypeIdentifier: OrderSignerPolicy.orderTypeIdentifier(of: leaf),
            notBefore: leaf.notBefore,
            notAfter: leaf.notAfter,
            chain: [],
            digestAlgorithm: layout.digestAlgorithm.name
        )
        defer { outcome.signer = facts }

        // The instant validity is judged at.
        let instant: Date?
        switch time {
        case .now: instant = now
        case .at(let date): instant = date
        case .signingTime:
            instant = outcome.signingTime
            if instant == nil { outcome.errors.append(.missingSigningTime) }
        }

        guard let store = trustStore.store else {
            outcome.errors.append(.untrustedChain(reason: "the trust store could not be loaded"))
            return
        }
        let candidates = trustStore.intermediates + embedded

        let chain: VerifiedChainCache.Chain
        if let known = trustStore.verifiedChains.chain(of: leaf, candidates: candidates, at: instant) {
            chain = known
        } else {
            switch try X509ChainBuilder.verify(leaf: leaf, untrusted: candidates, store: store, time: instant) {
            case .verified(let verified):
                chain = trustStore.verifiedChains.remember(verified, of: leaf)
            case .failed(let description, let certificate, outsideValidity: true):
                // Report the expiry, then check everything else as if time did not matter.
                if let instant, let certificate {
                    outcome.errors.append(
                        .certificateExpired(
                            subject: certificate.subjectDescription, notBefore: certificate.notBefore,
                            notAfter: certificate.notAfter, at: instant))
                }
                switch try X509ChainBuilder.verify(leaf: leaf, untrusted: candidates, store: store, time: nil) {
                case .verified(let verified):
                    chain = trustStore.verifiedChains.remember(verified, of: leaf)
                case .failed(let reason, _, _):
                    outcome.errors.append(.untrustedChain(reason: reason.isEmpty ? description : reason))
                    return
                }
            case .failed(let description, let certificate, outsideValidity: false):
                let subject = certificate.map { " (\(MessageText.quote($0.subjectDescription)))" } ?? ""
                outcome.errors.append(.untrustedChain(reason: description + subject))
                return
            }
        }
        facts.chain = chain.subjects
        outcome.errors += OrderSignerPolicy.violations(chain: chain.certificates, orderTypeIdentifier: orderTypeIdentifier)
    }
}
