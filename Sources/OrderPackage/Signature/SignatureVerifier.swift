import Foundation
import WalletPrimitives

/// Verifies the detached CMS `signature` over `manifest.json`, in stages (docs/order-format.md
/// §3.4):
///
/// 1. the documented shape (``SignedDataLayout``) and the embedded certificates;
/// 2. the signature math over the manifest bytes as received (signer by issuer and serial number,
///    or by subject key identifier): ``SignerSignatureCheck`` where it decides on its own, else
///    OpenSSL's CMS parser and `CMS_verify` (``parse(_:into:)``,
///    ``verifySignature(_:of:certificates:into:)``), which also word every refusal;
/// 3. ``instant(for:now:signingTime:into:)``: the instant validity is judged at;
/// 4. ``candidateChains(of:offered:into:)``: every chain OpenSSL builds from the leaf to a root of
///    the trust store, through its bundled WWDR intermediates or the embedded certificates;
/// 5. ``accept(_:policies:)``: the first candidate every ``SignerChainPolicy`` accepts — validity at
///    the instant, Apple's chain shape, the WWDR intermediate, the Order Type ID leaf — or the
///    first candidate's violations.
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
        _ signature: Data, _ manifest: Data, _ orderTypeIdentifier: String?, _ time: VerificationTime, _ now: Date,
        into outcome: inout Outcome
    ) throws(OpenSSLError) {
        guard let (parsed, leaf) = try verifiedSigner(signature, manifest, into: &outcome) else { return }
        var facts = SignerFacts(
            subject: leaf.subjectDescription, teamIdentifier: leaf.organizationalUnit,
            orderTypeIdentifier: OrderTypeLeafPolicy.orderTypeIdentifier(of: leaf), notBefore: leaf.notBefore,
            notAfter: leaf.notAfter, chain: [], digestAlgorithm: parsed.layout.digestAlgorithm.name)
        defer { outcome.signer = facts }
        let instant = instant(for: time, now: now, signingTime: outcome.signingTime, into: &outcome)
        let policies = [any SignerChainPolicy].orderSigner(orderTypeIdentifier: orderTypeIdentifier, instant: instant)
        // The intermediates offered: the trust store's bundled ones, then the embedded
        // certificates. Chains built before are tried first; when none is accepted, every chain is
        // built again (an intermediate offered now may complete one they lack).
        let offered = trustStore.intermediates + parsed.embedded
        if let remembered = trustStore.verifiedChains.chains(of: leaf, candidates: offered),
            let chain = remembered.first(where: { policies.violations(of: $0.certificates).isEmpty })
        {
            facts.chain = chain.subjects
            return
        }
        guard let chains = try candidateChains(of: leaf, offered: offered, into: &outcome) else { return }
        guard let (chain, violations) = Self.accept(chains, policies: policies) else { return }
        facts.chain = chain.subjects
        outcome.errors += violations
    }

    // MARK: - Stages

    /// The parsed signature: its layout and the embedded certificates.
    private struct Parsed {
        let layout: SignedDataLayout
        let embedded: [X509Certificate]
    }

    /// Stages 1 and 2: the layout, then the signer's signature by ``SignerSignatureCheck``; when
    /// that check does not decide a verification on its own, OpenSSL's CMS parser and `CMS_verify`
    /// (which also word every refusal). The parsed signature and the signer's certificate, or nil
    /// after reporting why not.
    private func verifiedSigner(
        _ signature: Data, _ manifest: Data, into outcome: inout Outcome
    ) throws(OpenSSLError) -> (Parsed, X509Certificate)? {
        let layout: SignedDataLayout
        do {
            layout = try SignedDataLayout(parsing: signature)
        } catch {
            outcome.errors.append(error)
            return nil
        }
        if let embedded = try? layout.certificates.map({ der throws(OpenSSLError) in
            try certificateCache.certificate(der: der)
        }),
            case .verified(let signer, let signingTime) = SignerSignatureCheck.check(
                layout, manifest: manifest, certificates: embedded)
        {
            outcome.signingTime = signingTime
            return (Parsed(layout: layout, embedded: embedded), signer)
        }
        guard let (parsed, cms) = parse(layout, into: &outcome),
            let leaf = try verifySignature(cms, of: manifest, certificates: parsed.embedded, into: &outcome)
        else { return nil }
        return (parsed, leaf)
    }

    /// OpenSSL's CMS structure of a layout (``SignedDataLayout`` says why its shape is checked
    /// first) with exactly one signer, and its embedded certificates; nil after reporting why not.
    private func parse(_ layout: SignedDataLayout, into outcome: inout Outcome) -> (Parsed, CMSContentInfo)? {
        let cms: CMSContentInfo
        do {
            cms = try CMSContentInfo(der: layout.structure)
        } catch {
            outcome.errors.append(.invalidCMS(reason: "OpenSSL cannot parse it (\(error.reasons.first ?? "unparsable"))"))
            return nil
        }
        var embedded: [X509Certificate] = []
        for (position, der) in layout.certificates.enumerated() {
            guard let certificate = try? certificateCache.certificate(der: der) else {
                outcome.errors.append(
                    .invalidCMS(reason: "embedded certificate \(position + 1) is not a valid X.509 certificate"))
                return nil
            }
            embedded.append(certificate)
        }
        guard cms.signerCount == 1 else {
            outcome.errors.append(.invalidCMS(reason: "OpenSSL does not find exactly one signer"))
            return nil
        }
        outcome.signingTime = cms.signingTime
        return (Parsed(layout: layout, embedded: embedded), cms)
    }

    /// The math, apart from the chain: the messageDigest attribute (or the signature itself) must
    /// match the manifest bytes exactly as received. The signer's certificate, or nil after
    /// reporting why not.
    private func verifySignature(
        _ cms: CMSContentInfo, of manifest: Data, certificates: [X509Certificate], into outcome: inout Outcome
    ) throws(OpenSSLError) -> X509Certificate? {
        switch try cms.verifyDetached(content: manifest, certificates: certificates) {
        case .verified(let signer):
            return signer
        case .signerCertificateMissing:
            outcome.errors.append(.untrustedChain(reason: "the signature does not include its signer's certificate"))
        case .mismatch(let reasons):
            outcome.errors.append(.mismatch(reason: reasons.joined(separator: "; ")))
        }
        return nil
    }

    /// The instant validity is judged at: the verifier's clock, a given instant, or the CMS
    /// `signingTime` (reported missing when the signature has none; validity is then not judged).
    private func instant(
        for time: VerificationTime, now: Date, signingTime: Date?, into outcome: inout Outcome
    ) -> Date? {
        switch time {
        case .now: return now
        case .at(let date): return date
        case .signingTime:
            if signingTime == nil { outcome.errors.append(.missingSigningTime) }
            return signingTime
        }
    }

    /// Every chain from `leaf` to a root of the store (remembered for the next archive); nil after
    /// reporting why there is none.
    private func candidateChains(
        of leaf: X509Certificate, offered: [X509Certificate], into outcome: inout Outcome
    ) throws(OpenSSLError) -> [VerifiedChainCache.Chain]? {
        guard let store = trustStore.store else {
            outcome.errors.append(.untrustedChain(reason: "the trust store could not be loaded"))
            return nil
        }
        switch try X509ChainBuilder.candidates(leaf: leaf, untrusted: offered, store: store) {
        case .candidates(let chains):
            return trustStore.verifiedChains.remember(chains, of: leaf)
        case .untrusted(let description, let certificate):
            let subject = certificate.map { " (\(MessageText.quote($0.subjectDescription)))" } ?? ""
            outcome.errors.append(.untrustedChain(reason: description + subject))
            return nil
        case .untrustedRoot(let name):
            outcome.errors.append(
                .untrustedChain(
                    reason: "it ends at the root \(MessageText.quote(name)), which is not trusted here; orders for Wallet "
                        + "chain to Apple's roots, and a test PKI's root is trusted with --trust-root FILE"))
            return nil
        case .issuerMissing(let subject, let issuer, let isLeaf):
            let reason =
                isLeaf
                ? "the signing certificate \(MessageText.quote(subject)) was issued by \(MessageText.quote(issuer)), whose "
                    + "certificate is neither embedded as an intermediate nor a root trusted here: embed the intermediate "
                    + "that issued it (orders signing add --intermediate FILE; for Apple certificates, Apple's WWDR G4), "
                    + "or, if it is a root, trust it with --trust-root FILE"
                : "it ends at the root \(MessageText.quote(issuer)), the issuer of the intermediate "
                    + "\(MessageText.quote(subject)), which is not trusted here; orders for Wallet chain to Apple's roots, "
                    + "and a test PKI's root is trusted with --trust-root FILE"
            outcome.errors.append(.untrustedChain(reason: reason))
            return nil
        }
    }

    /// The first chain no policy objects to, or else the first chain with its violations; nil for
    /// no chain.
    static func accept(
        _ chains: [VerifiedChainCache.Chain], policies: [any SignerChainPolicy]
    ) -> (chain: VerifiedChainCache.Chain, violations: [SignatureError])? {
        var first: (chain: VerifiedChainCache.Chain, violations: [SignatureError])?
        for chain in chains {
            let violations = policies.violations(of: chain.certificates)
            if violations.isEmpty { return (chain, []) }
            if first == nil { first = (chain, violations) }
        }
        return first
    }
}
