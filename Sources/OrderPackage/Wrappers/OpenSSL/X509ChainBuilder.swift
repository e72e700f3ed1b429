import COpenSSL
import Foundation

/// Builds and verifies a certificate chain with `X509_verify_cert`.
enum X509ChainBuilder {
    enum Outcome {
        case verified(chain: [X509Certificate])
        /// `certificate` is the one being checked when it failed; `outsideValidity` says the
        /// failure is only that it (or another) is expired or not yet valid at the given time.
        case failed(description: String, certificate: X509Certificate?, outsideValidity: Bool)
    }

    /// Verifies `leaf` against `store`, offering `untrusted` as intermediate candidates.
    ///
    /// - Parameter time: the instant to judge validity at, or nil to skip every time check.
    static func verify(
        leaf: X509Certificate,
        untrusted: [X509Certificate],
        store: X509Store,
        time: Date?
    ) throws(OpenSSLError) -> Outcome {
        guard let context = X509_STORE_CTX_new() else { throw OpenSSLError("allocate a verification context") }
        defer { X509_STORE_CTX_free(context) }
        // A fresh stack per verification: OpenSSL may sort the untrusted stack in place.
        let candidates = try X509CertificateStack(untrusted)
        guard X509_STORE_CTX_init(context, store.pointer, leaf.pointer, candidates.pointer) == 1 else {
            throw OpenSSLError("initialize a verification context")
        }
        // Apple leaves carry clientAuth and Apple EKUs; the default S/MIME purpose would reject them.
        X509_STORE_CTX_set_purpose(context, X509_PURPOSE_ANY)
        let parameters = X509_STORE_CTX_get0_param(context)
        if let time {
            X509_VERIFY_PARAM_set_time(parameters, ASN1Time.epochSeconds(time))
        } else {
            X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_NO_CHECK_TIME))
        }

        OpenSSLError.clearQueue()
        if X509_verify_cert(context) == 1, let chain = X509_STORE_CTX_get1_chain(context) {
            return .verified(chain: X509CertificateStack(taking: chain).certificates)
        }
        let code = X509_STORE_CTX_get_error(context)
        let failing = X509_STORE_CTX_get_current_cert(context).map(X509Certificate.init(borrowing:))
        OpenSSLError.clearQueue()
        return .failed(
            description: String(cString: X509_verify_cert_error_string(Int(code))), certificate: failing,
            outsideValidity: code == X509_V_ERR_CERT_HAS_EXPIRED || code == X509_V_ERR_CERT_NOT_YET_VALID)
    }
}
