import COpenSSL
import COpenSSLShims
import Foundation

/// What a PKCS#12 file (`.p12`, as Keychain Access exports an identity) holds: a private key,
/// usually its certificate, sometimes more certificates.
struct PKCS12Bundle {
    let privateKey: PrivateKey
    let certificate: X509Certificate?
    let otherCertificates: [X509Certificate]

    /// The bundle `data` holds, or nil when `data` is not PKCS#12 DER (a PEM key, say): read
    /// once, opened with `passphrase`.
    ///
    /// - Throws: when the file is PKCS#12 but the passphrase is wrong or it holds no key.
    static func open(_ data: Data, passphrase: String?) throws(OpenSSLError) -> PKCS12Bundle? {
        OpenSSLError.clearQueue()
        let bio = try MemoryBIO(data)
        guard let parsed = d2i_PKCS12_bio(bio.pointer, nil) else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer { PKCS12_free(parsed) }
        do {
            return try PKCS12Bundle(parsed: parsed, passphrase: passphrase)
        } catch let error where OSSL_PROVIDER_available(nil, "legacy") == 0 {
            // Files exported by older Keychain Access encrypt the certificate with RC2-40, which
            // OpenSSL 3 keeps in its legacy provider: loaded (once) only when a file fails without it.
            guard OSSL_PROVIDER_try_load(nil, "legacy", 1) != nil else { throw error }
            return try PKCS12Bundle(parsed: parsed, passphrase: passphrase)
        }
    }

    private init(parsed: OpaquePointer, passphrase: String?) throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var others: OpaquePointer?
        let parsedOK = (passphrase ?? "").withCString { PKCS12_parse(parsed, $0, &key, &certificate, &others) }
        guard parsedOK == 1 else { throw OpenSSLError("open the PKCS#12 file (is the passphrase right?)") }
        defer { if let others { wo_sk_X509_pop_free(others) } }
        guard let key else {
            if let certificate { X509_free(certificate) }
            throw OpenSSLError("find a private key in the PKCS#12 file")
        }
        privateKey = PrivateKey(taking: key)
        self.certificate = certificate.map { X509Certificate(taking: $0) }
        var chain: [X509Certificate] = []
        if let others {
            for index in 0..<wo_sk_X509_num(others) {
                if let element = wo_sk_X509_value(others, index) { chain.append(X509Certificate(borrowing: element)) }
            }
        }
        otherCertificates = chain
    }
}
