import COpenSSL
import Foundation

/// Builds certificate chains with `X509_verify_cert`: OpenSSL checks the signatures, the issuer
/// links and the root's presence in the store; what else a chain must satisfy is left to the
/// policies (``SignerChainPolicy``), so time is never checked here.
enum X509ChainBuilder {
    enum Outcome {
        /// Every chain OpenSSL verified, leaf first, one per intermediate that issued the leaf
        /// (or OpenSSL's own choice when none did: a leaf issued by a root, or a longer chain).
        case candidates([[X509Certificate]])
        /// No chain: OpenSSL's reason, and the certificate it was checking.
        case untrusted(description: String, certificate: X509Certificate?)
        /// The chain is whole but its root, self-signed and offered, is not in the store.
        case untrustedRoot(name: String)
        /// The chain stops at `subject` (the leaf itself when `isLeaf`): its issuer `issuer` is
        /// neither offered nor in the store — a missing intermediate, or a root not trusted.
        case issuerMissing(subject: String, issuer: String, isLeaf: Bool)
    }

    /// The candidate chains from `leaf` to a root of `store`, offering `untrusted` as
    /// intermediates: OpenSSL picks one issuer when several could serve (the first it finds), so
    /// each intermediate that issued the leaf is offered alone, and each chain it completes is a
    /// candidate, in the order of `untrusted`.
    static func candidates(
        leaf: X509Certificate, untrusted: [X509Certificate], store: X509Store
    ) throws(OpenSSLError) -> Outcome {
        var seen: [X509Certificate] = []
        var chains: [[X509Certificate]] = []
        for issuer in untrusted where X509_check_issued(issuer.pointer, leaf.pointer) == X509_V_OK {
            // The same certificate bundled and embedded is one candidate.
            guard !seen.contains(where: { X509_cmp($0.pointer, issuer.pointer) == 0 }) else { continue }
            seen.append(issuer)
            if case .verified(let chain) = try verify(leaf: leaf, untrusted: [issuer], store: store) {
                chains.append(chain)
            }
        }
        if !chains.isEmpty { return .candidates(chains) }
        switch try verify(leaf: leaf, untrusted: untrusted, store: store) {
        case .verified(let chain): return .candidates([chain])
        case .failed(let description, let certificate): return .untrusted(description: description, certificate: certificate)
        case .rootNotTrusted(let name): return .untrustedRoot(name: name)
        case .issuerMissing(let certificate):
            return .issuerMissing(
                subject: certificate.subjectDescription, issuer: certificate.issuerDescription,
                isLeaf: X509_cmp(certificate.pointer, leaf.pointer) == 0)
        }
    }

    private enum Verification {
        case verified([X509Certificate])
        case failed(String, X509Certificate?)
        case rootNotTrusted(String)
        case issuerMissing(X509Certificate)
    }

    /// One `X509_verify_cert`, every time check off.
    private static func verify(
        leaf: X509Certificate, untrusted: [X509Certificate], store: X509Store
    ) throws(OpenSSLError) -> Verification {
        guard let context = X509_STORE_CTX_new() else { throw OpenSSLError("allocate a verification context") }
        defer { X509_STORE_CTX_free(context) }
        // A fresh stack per verification: OpenSSL may sort the untrusted stack in place.
        let candidates = try X509CertificateStack(untrusted)
        guard X509_STORE_CTX_init(context, store.pointer, leaf.pointer, candidates.pointer) == 1 else {
            throw OpenSSLError("initialize a verification context")
        }
        // Apple leaves carry clientAuth and Apple EKUs; the default S/MIME purpose would reject them.
        X509_STORE_CTX_set_purpose(context, X509_PURPOSE_ANY)
        X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(context), UInt(X509_V_FLAG_NO_CHECK_TIME))
        OpenSSLError.clearQueue()
        if X509_verify_cert(context) == 1, let chain = X509_STORE_CTX_get1_chain(context) {
            return .verified(X509CertificateStack(taking: chain).certificates)
        }
        let code = X509_STORE_CTX_get_error(context)
        let failing = X509_STORE_CTX_get_current_cert(context).map(X509Certificate.init(borrowing:))
        OpenSSLError.clearQueue()
        switch (code, failing) {
        case (X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, let last?), (X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, let last?):
            return .issuerMissing(last)
        case (X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, let root?), (X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, let root?):
            return .rootNotTrusted(root.subjectDescription)
        default:
            return .failed(String(cString: X509_verify_cert_error_string(Int(code))), failing)
        }
    }
}
