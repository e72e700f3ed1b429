import COpenSSL
import COpenSSLShims
import Foundation

/// Verifies the detached CMS `signature` over `manifest.json`.
///
/// The checks follow ORDER-FORMAT.md §3.3: parse with the CMS API (signer identified by issuer
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
        let cms: CMSContentInfo
        let embedded: [X509Certificate]
        do {
            (cms, embedded) = try parse(signature)
        } catch {
            outcome.errors.append(.invalidCMS(reason: "not a DER-encoded CMS structure (\(error.reasons.first ?? "unparsable"))"))
            return
        }

        // Shape: SignedData over id-data, detached, one signer.
        guard OBJ_obj2nid(CMS_get0_type(cms.pointer)) == NID_pkcs7_signed else {
            outcome.errors.append(.invalidCMS(reason: "the content type is not SignedData"))
            return
        }
        guard OBJ_obj2nid(CMS_get0_eContentType(cms.pointer)) == NID_pkcs7_data else {
            outcome.errors.append(.invalidCMS(reason: "the encapsulated content type is not id-data"))
            return
        }
        guard CMS_is_detached(cms.pointer) == 1 else {
            outcome.errors.append(.invalidCMS(reason: "the signature carries attached content; it must be detached"))
            return
        }
        guard let signerInfos = CMS_get0_SignerInfos(cms.pointer), wo_sk_CMS_SignerInfo_num(signerInfos) == 1,
            let signerInfo = wo_sk_CMS_SignerInfo_value(signerInfos, 0)
        else {
            let count = CMS_get0_SignerInfos(cms.pointer).map { wo_sk_CMS_SignerInfo_num($0) } ?? 0
            outcome.errors.append(.invalidCMS(reason: "it has \(count) signers; exactly one is required"))
            return
        }

        let (digestNID, digest) = Self.digestAlgorithm(of: signerInfo)
        guard [NID_sha256, NID_sha384, NID_sha512].contains(digestNID) else {
            outcome.errors.append(.unsupportedDigest(algorithm: digest))
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
            digestAlgorithm: digest
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
            let subject = certificate.map { " ('\($0.subjectDescription)')" } ?? ""
            outcome.errors.append(.untrustedChain(reason: description + subject))
            return
        }
        facts.chain = chain.map(\.subjectDescription)
        outcome.errors += OrderSignerPolicy.violations(chain: chain, orderTypeIdentifier: orderTypeIdentifier)
    }

    /// The ContentInfo and its embedded certificates. Plain DER takes the fast path: the
    /// certificates are cut out (``SignedDataCertificates``) and come from the cache; anything
    /// else, or anything the fast path cannot parse, is parsed whole by OpenSSL.
    private func parse(_ signature: Data) throws(OpenSSLError) -> (CMSContentInfo, [X509Certificate]) {
        if let split = SignedDataCertificates.split(signature), !split.certificates.isEmpty,
            let structure = try? CMSContentInfo(der: split.structure)
        {
            var certificates: [X509Certificate] = []
            for der in split.certificates {
                guard let certificate = try? certificateCache.certificate(der: der) else { return try parseWhole(signature) }
                certificates.append(certificate)
            }
            return (structure, certificates)
        }
        return try parseWhole(signature)
    }

    private func parseWhole(_ signature: Data) throws(OpenSSLError) -> (CMSContentInfo, [X509Certificate]) {
        let cms = try CMSContentInfo(der: signature)
        let certificates = CMS_get1_certs(cms.pointer).map { X509CertificateStack(taking: $0).certificates } ?? []
        return (cms, certificates)
    }

    /// The signer's digest algorithm: its NID and a display name (`sha256`, or the OID when unnamed).
    private static func digestAlgorithm(of signerInfo: OpaquePointer) -> (nid: Int32, name: String) {
        var algorithm: UnsafeMutablePointer<X509_ALGOR>?
        CMS_SignerInfo_get0_algs(signerInfo, nil, nil, &algorithm, nil)
        var object: OpaquePointer?
        if let algorithm { X509_ALGOR_get0(&object, nil, nil, algorithm) }
        guard let object else { return (NID_undef, "unknown") }
        let nid = OBJ_obj2nid(object)
        if nid != NID_undef, let name = OBJ_nid2ln(nid) { return (nid, String(cString: name)) }
        return (nid, ASN1Object.dottedText(of: object))
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
