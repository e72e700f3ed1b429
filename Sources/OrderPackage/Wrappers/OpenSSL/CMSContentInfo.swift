import COpenSSL
import COpenSSLShims
import Foundation

/// An owned OpenSSL `CMS_ContentInfo`: parsing, the math of a detached signature, and signing.
final class CMSContentInfo {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Parses a DER-encoded ContentInfo.
    convenience init(der: Data) throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        let bio = try MemoryBIO(der)
        guard let parsed = d2i_CMS_bio(bio.pointer, nil) else { throw OpenSSLError("parse the CMS structure") }
        self.init(taking: parsed)
    }

    /// The DER encoding.
    func derBytes() throws(OpenSSLError) -> Data {
        let bio = try MemoryBIO()
        guard i2d_CMS_bio(bio.pointer, pointer) == 1 else { throw OpenSSLError("encode the CMS structure") }
        return bio.contents
    }

    deinit {
        CMS_ContentInfo_free(pointer)
    }

    // MARK: - Verifying

    /// How many SignerInfos OpenSSL finds.
    var signerCount: Int {
        CMS_get0_SignerInfos(pointer).map { Int(wo_sk_CMS_SignerInfo_num($0)) } ?? 0
    }

    /// The first signer's signingTime signed attribute (UTCTime or GeneralizedTime), if present.
    var signingTime: Date? {
        guard let signerInfos = CMS_get0_SignerInfos(pointer), let signerInfo = wo_sk_CMS_SignerInfo_value(signerInfos, 0)
        else { return nil }
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

    /// What `CMS_verify` says about a detached signature, its chain aside.
    enum DetachedVerification {
        case verified(signer: X509Certificate)
        /// No certificate among `certificates` matches the signer identifier.
        case signerCertificateMissing
        /// The digest or the signature does not match `content`.
        case mismatch(reasons: [String])
    }

    /// Checks the signature math over `content` exactly as given (binary, no MIME
    /// canonicalization), finding the signer's certificate among `certificates`. The chain is not
    /// built here (`CMS_NO_SIGNER_CERT_VERIFY`): ``X509ChainBuilder`` does that with the caller's
    /// trust store and time.
    func verifyDetached(content: Data, certificates: [X509Certificate]) throws(OpenSSLError) -> DetachedVerification {
        let contentBIO = try MemoryBIO(content)
        let candidates = try X509CertificateStack(certificates)
        OpenSSLError.clearQueue()
        let flags = UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)
        guard CMS_verify(pointer, candidates.pointer, nil, contentBIO.pointer, nil, flags) == 1 else {
            let error = OpenSSLError("verify the signature")
            if error.contains(reason: CMS_R_SIGNER_CERTIFICATE_NOT_FOUND) { return .signerCertificateMissing }
            return .mismatch(reasons: error.reasons)
        }
        guard let signers = CMS_get0_signers(pointer) else { return .signerCertificateMissing }
        defer { wo_sk_X509_free(signers) }
        guard wo_sk_X509_num(signers) > 0, let signer = wo_sk_X509_value(signers, 0) else { return .signerCertificateMissing }
        // The caller's own object when the signer is one of `certificates` (OpenSSL shares the
        // X509 it was given), so caches keyed by certificate objects recognize it.
        return .verified(signer: certificates.first { $0.pointer == signer } ?? X509Certificate(borrowing: signer))
    }

    // MARK: - Signing

    /// A detached SHA-256 SignedData over `content` (binary), as DER.
    ///
    /// - Parameters:
    ///   - extraCertificates: embedded beside the signer's own certificate.
    ///   - useKeyIdentifier: name the signer by subject key identifier instead of issuer and
    ///     serial number.
    ///   - signingTime: with a time, the usual signed attributes (contentType, messageDigest,
    ///     signingTime = this time); nil signs `content` alone, without attributes.
    static func signDetached(
        content: Data, certificate: X509Certificate, privateKey: PrivateKey, extraCertificates: [X509Certificate],
        useKeyIdentifier: Bool, signingTime: Date?
    ) throws(OpenSSLError) -> Data {
        OpenSSLError.clearQueue()
        let extra = try X509CertificateStack(extraCertificates)
        // CMS_PARTIAL: build the structure, add the signer and its attributes, then finalize.
        let structureFlags = UInt32(CMS_PARTIAL | CMS_DETACHED | CMS_BINARY)
        guard let raw = CMS_sign(nil, nil, extra.pointer, nil, structureFlags) else {
            throw OpenSSLError("create the CMS structure")
        }
        let cms = CMSContentInfo(taking: raw)

        var signerFlags = Int32(CMS_BINARY | CMS_NOSMIMECAP)
        if useKeyIdentifier { signerFlags |= Int32(CMS_USE_KEYID) }
        if signingTime == nil { signerFlags |= Int32(CMS_NOATTR) }
        guard
            let signerInfo = CMS_add1_signer(
                cms.pointer, certificate.pointer, privateKey.pointer, EVP_sha256(), UInt32(signerFlags))
        else { throw OpenSSLError("add the signer") }

        if let signingTime {
            // The caller's time pre-empts the one OpenSSL would add from the system clock.
            guard let time = ASN1_TIME_set(nil, ASN1Time.epochSeconds(signingTime)) else {
                throw OpenSSLError("encode the signing time")
            }
            defer { ASN1_TIME_free(time) }
            guard CMS_signed_add1_attr_by_NID(signerInfo, NID_pkcs9_signingTime, ASN1_STRING_type(time), time, -1) == 1 else {
                throw OpenSSLError("add the signing time")
            }
        }

        let contentBIO = try MemoryBIO(content)
        guard CMS_final(cms.pointer, contentBIO.pointer, nil, UInt32(CMS_BINARY | CMS_DETACHED)) == 1 else {
            throw OpenSSLError("sign the content")
        }
        return try cms.derBytes()
    }
}
