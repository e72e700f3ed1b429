import Foundation

/// The signer's signature of a detached SignedData checked without OpenSSL's CMS layer: the
/// signer's certificate found by its identifier, one `EVP_PKEY_verify` over the digest of the DER
/// signed attributes, and the messageDigest attribute against the manifest's digest.
///
/// `CMS_verify` stays the reference. This check decides on its own only where it provably agrees
/// with it (``SignedAttributes`` says which attributes; the signer identifier's bytes must equal
/// the certificate's own; the key must be RSA); everything else is ``Verdict/undecided(_:)``, and
/// ``SignatureVerifier`` then asks `CMS_verify`, which also words every refusal. The differential
/// fuzz target `FuzzSignatureDifferential` feeds both the same mutated signatures.
enum SignerSignatureCheck {
    enum Verdict {
        /// The signature and the messageDigest match; `signer` is one of the certificates given.
        case verified(signer: X509Certificate, signingTime: Date?)
        /// Within the shape this check decides on, the signature or the digest does not match.
        case rejected(String)
        /// Outside that shape: `CMS_verify` decides.
        case undecided(String)
    }

    static func check(_ layout: SignedDataLayout, manifest: Data, certificates: [X509Certificate]) -> Verdict {
        guard let element = layout.signer.signedAttributes else { return .undecided("no signed attributes") }
        guard let attributes = SignedAttributes(element, in: layout.bytes) else {
            return .undecided("signed attributes outside the shape decided here")
        }
        guard let signer = signerCertificate(layout, among: certificates) else {
            return .undecided("no certificate carries the signer identifier's exact bytes")
        }
        guard let key = signer.publicKey, key.isRSA else { return .undecided("the signer's key is not RSA") }
        let algorithm = layout.digestAlgorithm
        guard let attributesDigest = MessageDigest.bytes(of: attributes.signedBytes, algorithm: algorithm),
            let contentDigest = MessageDigest.bytes(of: manifest, algorithm: algorithm)
        else { return .undecided("digest \(algorithm.name) unavailable") }
        let signature = layout.bytes[layout.signer.signatureValue]
        guard key.verifiesPKCS1(signature: signature, digest: attributesDigest, algorithm: algorithm) else {
            return .rejected("the signature does not match the signed attributes")
        }
        guard contentDigest[...] == attributes.messageDigest else {
            return .rejected("the messageDigest attribute does not match the manifest")
        }
        return .verified(signer: signer, signingTime: attributes.signingTime)
    }

    /// The certificate `CMS_verify` would pick: the first whose identifier matches. Bytes equal to
    /// the certificate's issuer and serial number are a match for OpenSSL too; a certificate with
    /// the serial number but other issuer bytes might still match in canonical form
    /// (`X509_NAME_cmp`), so that case is left undecided (nil), as is no match at all.
    private static func signerCertificate(
        _ layout: SignedDataLayout, among certificates: [X509Certificate]
    ) -> X509Certificate? {
        let bytes = layout.bytes
        switch layout.signer.identifierFields {
        case .issuerAndSerialNumber(let issuer, let serial):
            for certificate in certificates {
                let identifiers = certificate.signerIdentifiers
                guard identifiers.serialNumber[...] == bytes[serial] else { continue }
                return identifiers.issuer[...] == bytes[issuer] ? certificate : nil
            }
            return nil
        case .subjectKeyIdentifier(let keyIdentifier):
            return certificates.first { $0.signerIdentifiers.subjectKeyIdentifier?[...] == bytes[keyIdentifier] }
        case nil:
            return nil
        }
    }
}
