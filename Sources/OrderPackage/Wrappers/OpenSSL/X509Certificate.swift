import COpenSSL
import COpenSSLShims
import Foundation
import Synchronization

/// An owned, immutable OpenSSL `X509` certificate.
///
/// `@unchecked Sendable`: the wrapper never mutates the certificate after creation, and OpenSSL 3
/// guards the lazily computed extension cache inside `X509` with its own lock.
final class X509Certificate: @unchecked Sendable {
    let pointer: OpaquePointer
    /// ``subjectDescription``, formatted once: cached certificates are described per archive.
    private let describedSubject = Mutex<String?>(nil)
    /// ``signerIdentifiers``, read once.
    let cachedSignerIdentifiers = Mutex<X509SignerIdentifiers?>(nil)
    /// What the signer policies read (subject attributes, extensions, key usages, validity), each
    /// read once (``readOnce(_:_:)``): a merchant's certificate is judged again for every archive
    /// it signed.
    private let readValues = Mutex<[String: any Sendable]>([:])
    /// Verification contexts of this certificate's key set up for a digest, by the digest's name
    /// (``verificationContext(digest:named:)``).
    private let verificationContexts = Mutex<[String: VerificationContext]>([:])

    /// An `EVP_PKEY_CTX` set up for verifying; only ever copied once stored (`EVP_PKEY_CTX_dup`
    /// reads it), so sharing it between threads is safe.
    private struct VerificationContext: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Takes ownership of one reference to `pointer`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Shares a borrowed certificate: takes a new reference so the wrapper may outlive its source.
    convenience init(borrowing pointer: OpaquePointer) {
        X509_up_ref(pointer)
        self.init(taking: pointer)
    }

    /// Parses one DER-encoded certificate; trailing bytes are an error.
    convenience init(der: Data) throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        let parsed: OpaquePointer? = der.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            guard cursor == base + buffer.count else {
                X509_free(certificate)
                return nil
            }
            return certificate
        }
        guard let parsed else { throw OpenSSLError("parse a DER certificate") }
        self.init(taking: parsed)
    }

    /// Parses every certificate in PEM text (text before the first header is allowed), or a
    /// single DER certificate.
    static func certificates(pemOrDER data: Data) throws(OpenSSLError) -> [X509Certificate] {
        guard data.firstRange(of: Data("-----BEGIN ".utf8)) != nil else {
            return [try X509Certificate(der: data)]
        }
        OpenSSLError.clearQueue()
        let bio = try MemoryBIO(data)
        var certificates: [X509Certificate] = []
        while let certificate = PEM_read_bio_X509(bio.pointer, nil, nil, nil) {
            certificates.append(X509Certificate(taking: certificate))
        }
        // The loop ends with a "no start line" error at the end of the text; anything else is real.
        let error = OpenSSLError("parse PEM certificates")
        guard !certificates.isEmpty else { throw error }
        return certificates
    }

    /// The DER encoding.
    var derBytes: Data {
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(pointer, &buffer)
        guard length > 0, let buffer else { return Data() }
        defer { wo_OPENSSL_free(buffer) }
        return Data(bytes: buffer, count: Int(length))
    }

    /// The PEM encoding: base64 of the DER in lines of 64, between the CERTIFICATE lines.
    var pem: String {
        let base64 = derBytes.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }

    /// Whether this certificate's name and key identifiers say it issued `subject` (no signature check).
    func issued(_ subject: X509Certificate) -> Bool {
        X509_check_issued(pointer, subject.pointer) == X509_V_OK
    }

    /// Lowercase hex SHA-256 of the DER encoding.
    var sha256Fingerprint: String {
        SHA256Digest.hex(of: derBytes)
    }

    /// The subject in certificate order with RFC 2253 escaping, e.g.
    /// `UID=order.com.example.shop,CN=Order Type ID: …,OU=ABCDE12345,O=…,C=US`.
    var subjectDescription: String {
        describedSubject.withLock { described in
            if let described { return described }
            let description = Self.describe(X509_get_subject_name(pointer))
            described = description
            return description
        }
    }

    /// The issuer, formatted like ``subjectDescription``.
    var issuerDescription: String {
        Self.describe(X509_get_issuer_name(pointer))
    }

    /// The subject's organizational unit (OU): for Apple certificates, the team identifier.
    var organizationalUnit: String? {
        readOnce("OU") { subjectAttribute(NID_organizationalUnitName) }
    }

    /// The subject's user ID (UID): for Order Type ID certificates, the order type identifier.
    var userID: String? {
        readOnce("UID") { subjectAttribute(NID_userId) }
    }

    /// What `read` returns, remembered under `key`: the certificate never changes, so every later
    /// call answers without OpenSSL. Two threads reading at once store equal values.
    private func readOnce<Value: Sendable>(_ key: String, _ read: () -> Value) -> Value {
        if let stored = readValues.withLock({ $0[key] }), let value = stored as? Value { return value }
        let value = read()
        readValues.withLock { $0[key] = value as any Sendable }
        return value
    }

    /// The first subject attribute with the given NID, as UTF-8.
    private func subjectAttribute(_ nid: Int32) -> String? {
        guard let name = X509_get_subject_name(pointer) else { return nil }
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index),
            let value = X509_NAME_ENTRY_get_data(entry)
        else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&utf8, value)
        guard length >= 0, let utf8 else { return nil }
        defer { wo_OPENSSL_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }

    var notBefore: Date? {
        X509_get0_notBefore(pointer).flatMap(ASN1Time.date(from:))
    }

    var notAfter: Date? {
        X509_get0_notAfter(pointer).flatMap(ASN1Time.date(from:))
    }

    /// Whether the certificate is valid at `date` (notBefore ≤ date ≤ notAfter).
    func isValid(at date: Date) -> Bool {
        guard let notBefore, let notAfter else { return false }
        return notBefore <= date && date <= notAfter
    }

    /// Whether OpenSSL's chain check would find the certificate within its validity at `date`:
    /// the same comparisons as `X509_verify_cert` with `X509_VERIFY_PARAM_set_time` (whole
    /// seconds; valid from notBefore up to, not including, notAfter; an unreadable field is not).
    func isWithinValidity(for date: Date) -> Bool {
        let notBefore = readOnce("notBefore") { Self.comparableSeconds(X509_get0_notBefore(pointer)) }
        let notAfter = readOnce("notAfter") { Self.comparableSeconds(X509_get0_notAfter(pointer)) }
        guard let notBefore, let notAfter else { return false }
        let seconds = ASN1Time.epochSeconds(date)
        // X509_cmp_time: a field at or before the instant compares as earlier.
        return notBefore <= seconds && notAfter > seconds
    }

    /// A validity field in seconds since 1970, for the comparisons `X509_cmp_time` makes; nil when
    /// it refuses the field (not UTCTime or GeneralizedTime of digits and `Z`, or no real date).
    private static func comparableSeconds(_ time: UnsafePointer<ASN1_TIME>?) -> time_t? {
        guard let time else { return nil }
        var probe: time_t = 0
        guard X509_cmp_time(time, &probe) != 0 else { return nil }
        var components = tm()
        guard ASN1_TIME_to_tm(time, &components) == 1 else { return nil }
        return timegm(&components)
    }

    /// The raw `extnValue` contents (DER) of the extension with the given dotted OID.
    func extensionValue(oid: String) -> Data? {
        readOnce(oid) { readExtensionValue(oid: oid) }
    }

    private func readExtensionValue(oid: String) -> Data? {
        guard let object = try? ASN1Object(dotted: oid) else { return nil }
        let index = X509_get_ext_by_OBJ(pointer, object.pointer, -1)
        guard index >= 0, let ext = X509_get_ext(pointer, index),
            let octets = X509_EXTENSION_get_data(ext),
            let bytes = ASN1_STRING_get0_data(octets)
        else { return nil }
        return Data(bytes: bytes, count: Int(ASN1_STRING_length(octets)))
    }

    func hasExtension(oid: String) -> Bool {
        extensionValue(oid: oid) != nil
    }

    /// The dotted OIDs in the extended key usage extension (empty when absent).
    var extendedKeyUsages: [String] {
        readOnce("extendedKeyUsage") { readExtendedKeyUsages() }
    }

    private func readExtendedKeyUsages() -> [String] {
        guard let raw = X509_get_ext_d2i(pointer, NID_ext_key_usage, nil, nil) else { return [] }
        let usages = OpaquePointer(raw)
        defer { EXTENDED_KEY_USAGE_free(usages) }
        return (0..<wo_sk_ASN1_OBJECT_num(usages)).compactMap { index in
            wo_sk_ASN1_OBJECT_value(usages, index).map(ASN1Object.dottedText(of:))
        }
    }

    private static func describe(_ name: OpaquePointer?) -> String {
        guard let name, let bio = try? MemoryBIO() else { return "" }
        // RFC 2253 escaping, but in certificate order (no DN_REV) and with non-ASCII characters
        // printed as UTF-8 (no ESC_MSB), which is how people read them.
        let flags = wo_XN_FLAG_RFC2253() & ~UInt(ASN1_STRFLGS_ESC_MSB) & ~UInt(XN_FLAG_DN_REV)
        guard X509_NAME_print_ex(bio.pointer, name, 0, flags) >= 0 else { return "" }
        return String(decoding: bio.contents, as: UTF8.self)
    }

    /// A new context verifying signatures of this certificate's key made with the digest `md`,
    /// which the caller frees. The first is set up (`EVP_PKEY_CTX_new_from_pkey`, `verify_init`,
    /// the digest: a tenth of an RSA verification's time) and kept; the next are copies of it.
    func verificationContext(digest md: OpaquePointer, named name: String) -> OpaquePointer? {
        if let template = verificationContexts.withLock({ $0[name] }) { return EVP_PKEY_CTX_dup(template.pointer) }
        guard let key = X509_get0_pubkey(pointer), let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            return nil
        }
        guard EVP_PKEY_verify_init(context) == 1, EVP_PKEY_CTX_set_signature_md(context, md) == 1,
            let template = EVP_PKEY_CTX_dup(context)
        else {
            EVP_PKEY_CTX_free(context)
            return nil
        }
        let kept = verificationContexts.withLock { contexts in
            guard contexts[name] == nil else { return false }
            contexts[name] = VerificationContext(pointer: template)
            return true
        }
        if !kept { EVP_PKEY_CTX_free(template) }
        return context
    }

    deinit {
        verificationContexts.withLock { contexts in
            for context in contexts.values { EVP_PKEY_CTX_free(context.pointer) }
        }
        X509_free(pointer)
    }
}
