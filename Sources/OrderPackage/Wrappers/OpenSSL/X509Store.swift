import COpenSSL

/// An owned OpenSSL `X509_STORE` of trusted roots, filled once and only read afterwards (OpenSSL
/// locks its internal lookups, so concurrent verifications may share one).
final class X509Store: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A store trusting `roots`. The same certificate twice is harmless and accepted.
    init(roots: [X509Certificate]) throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        guard let store = X509_STORE_new() else { throw OpenSSLError("create a trust store") }
        pointer = store
        for root in roots where X509_STORE_add_cert(store, root.pointer) != 1 {
            let error = OpenSSLError("add \(root.subjectDescription) to the trust store")
            if !error.contains(reason: X509_R_CERT_ALREADY_IN_HASH_TABLE) { throw error }
        }
    }

    deinit {
        X509_STORE_free(pointer)
    }
}
