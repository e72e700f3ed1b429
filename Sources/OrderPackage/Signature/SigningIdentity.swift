import Foundation
import WalletPrimitives

/// An order type's signing identity — its Order Type ID certificate, the private key and the WWDR
/// intermediate — checked, before it signs anything, exactly as Wallet will check what it signs.
///
/// The check signs a probe manifest and verifies the signature with the verifier's trust store
/// (Apple's roots and bundled WWDR intermediates, or a deployment's own): one path, the uploads'
/// path, decides what an authored order's signature must be. A key that does not belong to the
/// certificate is refused earlier, by ``OrderSigner``.
///
/// ```swift
/// let signer = try OrderSigner(certificate: certificate, privateKey: key, intermediates: [wwdr])
/// let identity = try SigningIdentity(
///     orderTypeIdentifier: "order.com.example.shop", signer: signer, verifier: OrderVerifier(), at: Date())
/// ```
public struct SigningIdentity: Sendable {
    public let orderTypeIdentifier: String
    public let signer: OrderSigner
    /// When the certificate stops being valid: versions signed after it would be refused.
    public let notAfter: Date?
    /// The certificate's subject OU.
    public let teamIdentifier: String?

    /// A signer that embeds no intermediate gets the one of `verifier`'s trust store that issued
    /// its certificate (Apple's WWDR G4, for a certificate from Apple): Wallet expects the
    /// intermediate in every signature.
    ///
    /// - Throws: ``SigningIdentityError``: the certificate is not an Order Type ID certificate, is
    ///   for another order type, is not valid at `date`, or does not chain to a root `verifier`
    ///   trusts.
    public init(
        orderTypeIdentifier: String, signer: OrderSigner, verifier: OrderVerifier, at date: Date
    ) throws(SigningIdentityError) {
        var signer = signer
        if signer.intermediates.isEmpty {
            signer.intermediates = Array(verifier.trustStore.intermediates.filter { $0.issued(signer.certificate) }.prefix(1))
        }
        let probe = Data(#"{"order.json":"0000000000000000000000000000000000000000000000000000000000000000"}"#.utf8)
        let signature: Data
        do {
            signature = try signer.sign(manifest: probe, signingTime: date)
        } catch {
            throw .cannotSign(reason: error.description)
        }
        let outcome = SignatureVerifier(trustStore: verifier.trustStore).verify(
            signature: signature, manifest: probe, orderTypeIdentifier: orderTypeIdentifier, time: .at(date),
            now: date)
        if let refusal = outcome.errors.lazy.compactMap(SigningIdentityError.init(refusing:)).first {
            throw refusal
        }
        self.orderTypeIdentifier = orderTypeIdentifier
        self.signer = signer
        notAfter = outcome.signer?.notAfter
        teamIdentifier = outcome.signer?.teamIdentifier
    }
}

/// Why a signing identity is refused. Codes are stable (docs/error-codes.md).
public enum SigningIdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The certificate lacks Apple's Order Type ID marks (a Pass Type ID certificate, say).
    case notOrderTypeCertificate(reason: String)
    /// The certificate is an Order Type ID certificate for another type.
    case wrongOrderType(certificate: String, expected: String)
    /// Not valid at the time of the check.
    case certificateExpired(reason: String)
    /// No chain from the certificate, through a WWDR intermediate, to a trusted root.
    case untrustedChain(reason: String)
    /// The probe could not be signed or its signature is not what Wallet accepts.
    case cannotSign(reason: String)
    /// A store holds no identity for the order type.
    case notFound(orderTypeIdentifier: String)
    /// `orders signing activate` with no identity staged for the order type.
    case nothingStaged(orderTypeIdentifier: String)
    /// A live service instance cannot load the staged identity, or has not yet said whether it
    /// can: activating it would stop that instance signing (`instances`: each with its reason).
    case notLoadableEverywhere(orderTypeIdentifier: String, instances: [String])

    init?(refusing error: SignatureError) {
        switch error {
        case .notOrderTypeCertificate(let reason): self = .notOrderTypeCertificate(reason: reason)
        case .typeIdentifierMismatch(let certificate, let order):
            self = .wrongOrderType(certificate: certificate, expected: order)
        case .certificateExpired: self = .certificateExpired(reason: error.message)
        case .untrustedChain(let reason): self = .untrustedChain(reason: reason)
        case .missingSigningTime: return nil
        default: self = .cannotSign(reason: error.message)
        }
    }

    public var description: String {
        switch self {
        case .notOrderTypeCertificate(let reason): "the certificate is not an Order Type ID certificate: \(reason)"
        case .wrongOrderType(let certificate, let expected):
            "the certificate is for the order type \(certificate.debugDescription), not \(expected.debugDescription)"
        case .certificateExpired(let reason): "the certificate is not valid now: \(reason)"
        case .untrustedChain(let reason): "the certificate does not chain to a trusted root: \(reason)"
        case .cannotSign(let reason): "the identity cannot sign what Wallet accepts: \(reason)"
        case .notFound(let type): "no signing identity for the order type \(type.debugDescription)"
        case .nothingStaged(let type):
            "no signing identity is staged for the order type \(type.debugDescription) (orders signing add stages one)"
        case .notLoadableEverywhere(let type, let instances):
            "the staged identity of \(type.debugDescription) is not known to sign on every live instance — "
                + instances.joined(separator: "; ")
                + " — so activating it would stop those instances signing; fix them (orders signing status), or --force"
        }
    }
}

extension SigningIdentityError: WalletError {
    public var code: String {
        switch self {
        case .notOrderTypeCertificate: "signing.notOrderTypeCertificate"
        case .wrongOrderType: "signing.wrongOrderType"
        case .certificateExpired: "signing.certificateExpired"
        case .untrustedChain: "signing.untrustedChain"
        case .cannotSign: "signing.cannotSign"
        case .notFound: "signing.notFound"
        case .nothingStaged: "signing.nothingStaged"
        case .notLoadableEverywhere: "signing.notLoadableEverywhere"
        }
    }

    public var message: String { description }
    public var category: ErrorCategory {
        switch self {
        case .notFound, .nothingStaged: .notFound
        case .notLoadableEverywhere: .conflict
        default: .invalidInput
        }
    }
}
