import COpenSSL
import COpenSSLShims

/// An owned `STACK_OF(X509)` whose certificates it also owns (freed with `sk_X509_pop_free`).
final class X509CertificateStack {
    let pointer: OpaquePointer

    /// A new stack holding a reference to each certificate.
    init(_ certificates: [X509Certificate]) throws(OpenSSLError) {
        guard let stack = wo_sk_X509_new_null() else { throw OpenSSLError("allocate a certificate stack") }
        pointer = stack
        for certificate in certificates {
            X509_up_ref(certificate.pointer)
            guard wo_sk_X509_push(stack, certificate.pointer) > 0 else {
                X509_free(certificate.pointer)
                throw OpenSSLError("grow a certificate stack")
            }
        }
    }

    /// Takes ownership of a stack from an OpenSSL `get1` function.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// The certificates, each wrapped with its own reference.
    var certificates: [X509Certificate] {
        Self.certificates(in: pointer)
    }

    /// Wraps (with new references) the certificates of a stack this code does not own.
    static func certificates(in stack: OpaquePointer) -> [X509Certificate] {
        (0..<wo_sk_X509_num(stack)).compactMap { index in
            wo_sk_X509_value(stack, index).map(X509Certificate.init(borrowing:))
        }
    }

    deinit {
        wo_sk_X509_pop_free(pointer)
    }
}
