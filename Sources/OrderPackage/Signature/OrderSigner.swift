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
    var intermediates: [X509Certificate]

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

    /// A signer whose key is where `key` says: a PEM or PKCS#12 file, or a PKCS#11 token.
    ///
    /// - Parameters:
    ///   - certificate: the Order Type ID certificate, PEM or DER; nil when `key` is a PKCS#12
    ///     file that holds it.
    ///   - key: where the private key is; its passphrase or PIN is read now, from where it says.
    ///   - intermediates: certificates to embed (usually Apple's WWDR G4), PEM or DER; when none
    ///     are given, a PKCS#12 file's other certificates are embedded.
    public init(certificate: Data?, key: SigningKeyLocation, intermediates: [Data] = []) throws(OrderSignerError) {
        try key.checkStorable()
        var bundledCertificate: X509Certificate?
        var bundledChain: [X509Certificate] = []
        switch key {
        case .file(let path, let passphraseSource):
            let passphrase = try passphraseSource?.read()
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw .invalidPrivateKey(reason: "cannot read " + (FileAccess.problem(reading: path) ?? path))
            }
            do {
                if let bundle = try PKCS12Bundle.open(contents, passphrase: passphrase) {
                    privateKey = bundle.privateKey
                    bundledCertificate = bundle.certificate
                    bundledChain = bundle.otherCertificates.filter { $0.subjectDescription != $0.issuerDescription }
                } else {
                    privateKey = try PrivateKey(pem: contents, passphrase: passphrase)
                }
            } catch {
                throw .invalidPrivateKey(reason: error.description)
            }
        case .pkcs11(let uri, let module, let pinSource):
            let pin = try pinSource?.read()
            do {
                privateKey = try PKCS11Engine.engine(modulePath: module).privateKey(uri: uri, pin: pin)
            } catch {
                PKCS11Engine.resetAfterFailure(modulePath: module)
                let access =
                    module == nil || module?.lowercased().contains("softhsm") == true ? FileAccess.softHSMTokenProblem() : nil
                throw .invalidPrivateKey(
                    reason: error.description + (pin == nil ? " (no PIN was given)" : "") + (access.map { "; \($0)" } ?? ""))
            }
        }
        do {
            if let certificate {
                guard let leaf = try X509Certificate.certificates(pemOrDER: certificate).first else {
                    throw OrderSignerError.invalidCertificate(reason: "no certificate found")
                }
                self.certificate = leaf
            } else if let bundledCertificate {
                self.certificate = bundledCertificate
            } else {
                throw OrderSignerError.invalidCertificate(reason: "no certificate given, and the key's file holds none")
            }
            var chain: [X509Certificate] = []
            for blob in intermediates { chain += try X509Certificate.certificates(pemOrDER: blob) }
            self.intermediates = intermediates.isEmpty ? bundledChain : chain
        } catch let error as OrderSignerError {
            throw error
        } catch {
            throw .invalidCertificate(reason: String(describing: error))
        }
        guard privateKey.matches(self.certificate) else { throw .keyDoesNotMatchCertificate }
    }

    /// The certificate, PEM: what a store keeps of it.
    public var certificatePEM: String { certificate.pem }

    /// The embedded intermediates, PEM, one after the other (empty when there are none).
    public var intermediatesPEM: String { intermediates.map(\.pem).joined() }

    /// The certificate's SHA-256 fingerprint, lowercase hex.
    public var certificateSHA256: String { certificate.sha256Fingerprint }

    /// The order type identifier the certificate is for, if it carries Apple's marker extension.
    public var orderTypeIdentifier: String? {
        OrderTypeLeafPolicy.orderTypeIdentifier(of: certificate)
    }

    /// The certificate's subject OU: the team identifier.
    public var teamIdentifier: String? {
        certificate.organizationalUnit
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
        try CMSContentInfo.signDetached(
            content: manifest, certificate: certificate, privateKey: privateKey, extraCertificates: intermediates,
            useKeyIdentifier: signerIdentifier == .subjectKeyIdentifier,
            signingTime: includesSignedAttributes ? signingTime : nil)
    }
}
