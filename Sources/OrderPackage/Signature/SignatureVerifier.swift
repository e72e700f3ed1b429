import COpenSSL
import COpenSSLShims
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
        guard let signerInfos = CMS_get0_SignerInfos(cms.pointer), wo_sk_CMS_SignerInfo_num(signerInfos) == 1,
            let signerInfo = wo_sk_CMS_SignerInfo_value(signerInfos, 0)
        else {
            outcome.errors.append(.invalidCMS(reason: "OpenSSL does not find exactly one signer"))
            return
        }
        outcome.signingTime = Self.signingTime(of: signerInfo)

        // The math, apart from the chain: the messageDigest attribute (or the signature itself)
        // must match the manifest bytes exactly as received.
        let content = try MemoryBIO(manifest)
        let embeddedStack = try X509CertificateStack(embedded)
        OpenSSLError.clearQueue()
        let flags = UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)
        guard CMS_verify(cms.pointer, embeddedStack.pointer, nil, content.pointer, nil, flags) == 1 else {
            let error = OpenSSLError("verify the signature")
            if error.contains(reason: CMS_R_SIGNER_CERTIFICATE_NOT_FOUND) {
                outcome.errors.append(.untrustedChain(reason: "the signature does not include its signer's certificate"))
            } else {
                outcome.errors.append(.mismatch(reason: error.reasons.joined(separator: "; ")))
            }
            return
        }
        guard let signers = CMS_get0_signers(cms.pointer) else {
            outcome.errors.append(.untrustedChain(reason: "the signer's certificate could not be located"))
            return
        }
        let leaf = X509CertificateStack.certificates(in: signers).first
        wo_sk_X509_free(signers)
        guard let leaf else {
            outcome.errors.append(.untrustedChain(reason: "the signer's certificate could not be located"))
            return
        }
        var facts = SignerFacts(
            subject: leaf.subjectDescription,
            teamIdentifier: leaf.subjectAttribute(NID_organizationalUnitName),
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

        var chain: [X509Certificate]
        switch try X509ChainBuilder.verify(leaf: leaf, untrusted: candidates, store: store, time: instant) {
        case .verified(let verified):
            chain = verified
        case .failed(let code, let description, let certificate)
        where code == X509_V_ERR_CERT_HAS_EXPIRED || code == X509_V_ERR_CERT_NOT_YET_VALID:
            // Report the expiry, then check everything else as if time did not matter.
            if let instant, let certificate {
                outcome.errors.append(
                    .certificateExpired(
                        subject: certificate.subjectDescription, notBefore: certificate.notBefore,
                        notAfter: certificate.notAfter, at: instant))
            }
            switch try X509ChainBuilder.verify(leaf: leaf, untrusted: candidates, store: store, time: nil) {
            case .verified(let verified):
                chain = verified
            case .failed(_, let reason, _):
                outcome.errors.append(.untrustedChain(reason: reason.isEmpty ? description : reason))
                return
            }
        case .failed(_, let description, let certificate):
            let subject = certificate.map { " (\(MessageText.quote($0.subjectDescription)))" } ?? ""
            outcome.errors.append(.untrustedChain(reason: description + subject))
            return
        }
        facts.chain = chain.map(\.subjectDescription)
        outcome.errors += OrderSignerPolicy.violations(chain: chain, orderTypeIdentifier: orderTypeIdentifier)
    }

    /// The CMS signingTime signed attribute (UTCTime or GeneralizedTime), if present.
    private static func signingTime(of signerInfo: OpaquePointer) -> Date? {
        let index = CMS_signed_get_attr_by_NID(signerInfo, NID_pkcs9_signingTime, -1)
        guard index >= 0, let attribute = CMS_signed_get_attr(signerInfo, index),
            let value = X509_ATTRIBUTE_get0_type(attribute, 0)
        else { return nil }
        let type = ASN1_TYPE_get(value)
        // Both union members are the same ASN1_STRING pointer; ASN1_TIME_to_tm reads either form.
        guard type == V_ASN1_UTCTIME || type == V_ASN1_GENERALIZEDTIME, let time = value.pointee.value.utctime
        else { return nil }
        return ASN1Time.date(from: time)
    }
}
