import COpenSSL
import Foundation

/// An Order Type ID certificate with its private key: signs `manifest.json` into the detached
/// CMS `signature` of an order package.
///
/// ```swift
/// let signer = try OrderSigner(
///     certificate: Data(contentsOf: certificateURL),
///     privateKey: Data(contentsOf: keyURL),
///     intermediates: [Data(contentsOf: wwdrURL)]
/// )
/// let signature = try signer.sign(manifest: manifestBytes, signingTime: Date())
/// ```
public struct OrderSigner: Sendable {
    /// How the SignerInfo names its certificate. Wallet accepts both.
    public enum SignerIdentifier: Sendable, Hashable {
        case issuerAndSerialNumber
        case subjectKeyIdentifier
    }

    let certificate: X509Certificate
    let privateKey: PrivateKey
    let intermediates: [X509Certificate]

    public var signerIdentifier: SignerIdentifier = .issuerAndSerialNumber
    /// Whether to sign the attributes contentType, messageDigest and signingTime (the usual
    /// form) or the manifest alone.
    public var includesSignedAttributes = true

    /// - Parameters:
    ///   - certificate: the Order Type ID certificate, PEM or DER.
    ///   - privateKey: its private key, PEM (PKCS#8 or traditional).
    ///   - passphrase: the key's passphrase, if it is encrypted.
    ///   - intermediates: certificates to embed (usually Apple's WWDR G4), PEM or DER.
    public init(
        certificate: Data, privateKey: Data, passphrase: String? = nil, intermediates: [Data] = []
    ) throws(OrderSignerError) {
        do {
            guard let leaf = try X509Certificate.certificates(pemOrDER: certificate).first else {
                throw OrderSignerError.invalidCertificate(reason: "no certificate found")
            }
            self.certificate = leaf
            var chain: [X509Certificate] = []
            for blob in intermediates { chain += try X509Certificate.certificates(pemOrDER: blob) }
            self.intermediates = chain
        } catch let error as OrderSignerError {
            throw error
        } catch {
            throw .invalidCertificate(reason: String(describing: error))
        }
        do {
            self.privateKey = try PrivateKey(pem: privateKey, passphrase: passphrase)
        } catch {
            throw .invalidPrivateKey(reason: error.description)
        }
        guard self.privateKey.matches(self.certificate) else { throw .keyDoesNotMatchCertificate }
    }

    /// The order type identifier the certificate is for, if it carries Apple's marker extension.
    public var orderTypeIdentifier: String? {
        OrderSignerPolicy.orderTypeIdentifier(of: certificate)
    }

    /// The certificate's subject OU: the team identifier.
    public var teamIdentifier: String? {
        certificate.subjectAttribute(NID_organizationalUnitName)
    }

    /// A DER CMS SignedData over `manifest`, detached, SHA-256, embedding the certificate and the
    /// intermediates, with `signingTime` when signed attributes are included.
    public func sign(manifest: Data, signingTime: Date) throws(OrderSignerError) -> Data {
        do {
            return try makeSignature(manifest: manifest, signingTime: signingTime)
        } catch {
            throw .signingFailed(reason: error.description)
        }
    }

    private func makeSignature(manifest: Data, signingTime: Date) throws(OpenSSLError) -> Data {
        OpenSSLError.clearQueue()
        let extraCertificates = try X509CertificateStack(intermediates)
        // CMS_PARTIAL: build the structure, add the signer and its attributes, then finalize.
        let structureFlags = UInt32(CMS_PARTIAL | CMS_DETACHED | CMS_BINARY)
        guard let raw = CMS_sign(nil, nil, extraCertificates.pointer, nil, structureFlags) else {
            throw OpenSSLError("create the CMS structure")
        }
        let cms = CMSContentInfo(taking: raw)

        var signerFlags = Int32(CMS_BINARY | CMS_NOSMIMECAP)
        if signerIdentifier == .subjectKeyIdentifier { signerFlags |= Int32(CMS_USE_KEYID) }
        if !includesSignedAttributes { signerFlags |= Int32(CMS_NOATTR) }
        guard
            let signerInfo = CMS_add1_signer(
                cms.pointer, certificate.pointer, privateKey.pointer, EVP_sha256(), UInt32(signerFlags))
        else { throw OpenSSLError("add the signer") }

        if includesSignedAttributes {
            // Our own signingTime (from the caller's clock) pre-empts the one OpenSSL would add.
            guard let time = ASN1_TIME_set(nil, ASN1Time.epochSeconds(signingTime)) else {
                throw OpenSSLError("encode the signing time")
            }
            defer { ASN1_TIME_free(time) }
            guard CMS_signed_add1_attr_by_NID(signerInfo, NID_pkcs9_signingTime, ASN1_STRING_type(time), time, -1) == 1 else {
                throw OpenSSLError("add the signing time")
            }
        }

        let content = try MemoryBIO(manifest)
        guard CMS_final(cms.pointer, content.pointer, nil, UInt32(CMS_BINARY | CMS_DETACHED)) == 1 else {
            throw OpenSSLError("sign the manifest")
        }
        return try cms.derBytes()
    }
}
