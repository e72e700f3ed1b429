import Foundation

/// The shape of a `signature` entry, checked field by field before OpenSSL sees it, and the
/// structure split from its embedded certificates.
///
/// Most of a CMS SignedData is not covered by the signature (RFC 5652 §5.4): versions, algorithm
/// parameters, the certificate set, unsigned attributes, bytes after the structure. Left free,
/// each is a way to make another archive that verifies the same. So only the documented shape is
/// accepted (docs/order-format.md §3):
///
/// ```text
/// ContentInfo { id-signedData, [0] SignedData }                    then nothing
/// SignedData  { version 1 (issuer and serial) or 3 (key identifier),
///               digestAlgorithms: exactly the signer's digest,
///               encapContentInfo { id-data } (detached: no content),
///               [0] certificates (X.509 only), no CRLs, exactly one SignerInfo }
/// SignerInfo  { version 1 + issuerAndSerialNumber, or 3 + [0] subjectKeyIdentifier,
///               digestAlgorithm SHA-256/384/512, [0] signed attributes (optional),
///               signatureAlgorithm rsaEncryption, or sha256WithRSAEncryption with SHA-256,
///               signature OCTET STRING, no unsigned attributes }
/// ```
///
/// Algorithm parameters are NULL or absent (both are written by real producers); lengths are DER,
/// or BER indefinite lengths on constructed elements (BouncyCastle's `getEncoded()`). What stays
/// free is exactly what producers differ in: those two encodings, the two algorithm spellings, and
/// which certificates are embedded (real archives embed the wrong WWDR generation).
///
/// Why a parse of our own: OpenSSL 3.0 spends ~170 µs decoding each certificate
/// (openssl/openssl#19119), and merchants embed the same leaf and WWDR certificate every time, so
/// ``structure`` (without certificates) goes to OpenSSL and the certificates come from
/// ``X509CertificateCache``.
struct SignedDataLayout {
    enum SignerIdentifier {
        case issuerAndSerialNumber
        case subjectKeyIdentifier
    }

    /// The signature's bytes, which the ranges below index.
    var bytes: [UInt8]
    /// Each embedded certificate's encoding, in order.
    var certificates: [Data]
    var signerIdentifier: SignerIdentifier
    var digestAlgorithm: ObjectIdentifierName
    /// The one SignerInfo's fields that ``SignerSignatureCheck`` reads.
    var signer: SignerFields
    /// The ContentInfo's content type and the SignedData's fields but `certificates`, in order.
    private var structureParts: (contentType: Range<Int>, signedFields: [Range<Int>])

    var hasSignedAttributes: Bool { signer.signedAttributes != nil }

    /// Where the SignerInfo's identifier, signed attributes and signature value are in ``bytes``.
    struct SignerFields {
        enum IdentifierFields {
            /// The issuer Name's and the serial INTEGER's encodings.
            case issuerAndSerialNumber(issuer: Range<Int>, serial: Range<Int>)
            /// The key identifier's octets.
            case subjectKeyIdentifier(Range<Int>)
        }

        /// nil when the identifier is not a plain `SEQUENCE { Name, INTEGER }` or `[0]` octets.
        var identifierFields: IdentifierFields?
        /// The `[0]` signed attributes element.
        var signedAttributes: BERElement?
        /// The signature OCTET STRING's content.
        var signatureValue: Range<Int>
    }

    /// The ContentInfo without its `certificates` field, DER at the levels rewritten: what
    /// OpenSSL's CMS parser is given.
    var structure: Data {
        var signedContent: [UInt8] = []
        for field in structureParts.signedFields { signedContent += bytes[field] }
        let contentInfo = Array(bytes[structureParts.contentType])
        return Data(BERElement.encode(0x30, contentInfo + BERElement.encode(0xA0, BERElement.encode(0x30, signedContent))))
    }

    private init(
        bytes: [UInt8], certificates: [Data], signerIdentifier: SignerIdentifier, digestAlgorithm: ObjectIdentifierName,
        signer: SignerFields, structureParts: (contentType: Range<Int>, signedFields: [Range<Int>])
    ) {
        self.bytes = bytes
        self.certificates = certificates
        self.signerIdentifier = signerIdentifier
        self.digestAlgorithm = digestAlgorithm
        self.signer = signer
        self.structureParts = structureParts
    }

    /// Checks `bytes` against the documented shape.
    ///
    /// - Throws: ``SignatureError/unsupportedDigest(algorithm:)`` for a digest other than
    ///   SHA-256/384/512, ``SignatureError/unsupportedAlgorithm(algorithm:)`` for another signature
    ///   algorithm, and ``SignatureError/invalidCMS(reason:)`` for everything else.
    init(parsing data: Data) throws(SignatureError) {
        let bytes = [UInt8](data)
        do {
            self = try Self.parse(bytes)
        } catch let error as SignatureError {
            throw error
        } catch let error as BERElement.Malformed {
            throw .invalidCMS(reason: "not a DER-encoded CMS structure (\(error.reason))")
        } catch {
            throw .invalidCMS(reason: "\(error)")
        }
    }

    private static func parse(_ bytes: [UInt8]) throws -> SignedDataLayout {
        let info = try BERElement(bytes, at: 0, limit: bytes.count)
        guard info.end == bytes.count else {
            throw SignatureError.invalidCMS(reason: "\(bytes.count - info.end) bytes follow the SignedData structure")
        }
        let infoFields = try info.children(bytes)
        guard info.tag == 0x30, infoFields.count == 2, infoFields[0].tag == 0x06 else {
            throw SignatureError.invalidCMS(reason: "not a CMS ContentInfo")
        }
        guard bytes[infoFields[0].content] == ObjectIdentifierName.signedData.der[...] else {
            throw SignatureError.invalidCMS(reason: "the content type is not SignedData")
        }
        let explicit = try infoFields[1].children(bytes)
        guard infoFields[1].tag == 0xA0, explicit.count == 1, explicit[0].tag == 0x30 else {
            throw SignatureError.invalidCMS(reason: "the SignedData is missing")
        }
        let signedFields = try explicit[0].children(bytes)

        // version, digestAlgorithms, encapContentInfo, [0] certificates?, [1] crls?, signerInfos
        guard signedFields.count >= 4, signedFields[0].tag == 0x02, signedFields[1].tag == 0x31,
            signedFields[2].tag == 0x30, let signerInfos = signedFields.last, signerInfos.tag == 0x31
        else { throw SignatureError.invalidCMS(reason: "the SignedData's fields are not version, digests, content, signers") }
        let optional = signedFields[3..<signedFields.count - 1]
        if optional.contains(where: { $0.tag == 0xA1 }) {
            throw SignatureError.invalidCMS(reason: "it carries CRLs, which an order signature never needs")
        }
        guard optional.count <= 1, optional.allSatisfy({ $0.tag == 0xA0 }) else {
            throw SignatureError.invalidCMS(reason: "the SignedData has fields it should not")
        }

        let content = try signedFields[2].children(bytes)
        guard let contentType = content.first, contentType.tag == 0x06,
            bytes[contentType.content] == ObjectIdentifierName.data.der[...]
        else { throw SignatureError.invalidCMS(reason: "the encapsulated content type is not id-data") }
        guard content.count == 1 else {
            throw SignatureError.invalidCMS(reason: "the signature carries attached content; it must be detached")
        }

        let signers = try signerInfos.children(bytes)
        guard signers.count == 1 else {
            throw SignatureError.invalidCMS(reason: "it has \(signers.count) signers; exactly one is required")
        }
        let signer = try Signer(signers[0], bytes)

        let version = try integer(signedFields[0], bytes)
        let expectedVersion = signer.identifier == .subjectKeyIdentifier ? 3 : 1
        guard version == expectedVersion else {
            throw SignatureError.invalidCMS(
                reason: "the SignedData version is \(version); this signer requires \(expectedVersion)")
        }
        let digests = try signedFields[1].children(bytes)
        guard digests.count == 1, try algorithm(digests[0], bytes) == signer.digestAlgorithm else {
            throw SignatureError.invalidCMS(reason: "the SignedData's digest algorithms must be exactly the signer's")
        }

        var certificates: [Data] = []
        if let field = optional.first {
            for certificate in try field.children(bytes) {
                guard certificate.tag == 0x30 else {
                    throw SignatureError.invalidCMS(reason: "it embeds a certificate that is not an X.509 certificate")
                }
                certificates.append(Data(certificate.encoding(bytes)))
            }
        }

        let parts = (
            contentType: infoFields[0].start..<infoFields[0].end,
            signedFields: signedFields.filter { $0.tag != 0xA0 }.map { $0.start..<$0.end }
        )
        return SignedDataLayout(
            bytes: bytes, certificates: certificates, signerIdentifier: signer.identifier,
            digestAlgorithm: signer.digestAlgorithm, signer: signer.positions,
            structureParts: parts)
    }

    /// The fields of the one SignerInfo.
    private struct Signer {
        var identifier: SignerIdentifier
        var digestAlgorithm: ObjectIdentifierName
        var positions: SignerFields

        init(_ element: BERElement, _ bytes: [UInt8]) throws {
            let fields = try element.children(bytes)
            // version, sid, digestAlgorithm, [0] signedAttrs?, signatureAlgorithm, signature, [1] unsignedAttrs?
            guard element.tag == 0x30, (5...7).contains(fields.count), fields[0].tag == 0x02 else {
                throw SignatureError.invalidCMS(reason: "the SignerInfo's fields are not as RFC 5652 orders them")
            }
            if fields.last?.tag == 0xA1 {
                throw SignatureError.invalidCMS(
                    reason: "the signer has unsigned attributes, which are not covered by the signature")
            }
            guard fields.count <= 6 else { throw SignatureError.invalidCMS(reason: "the SignerInfo has fields it should not") }
            switch fields[1].tag {
            case 0x30: identifier = .issuerAndSerialNumber
            case 0x80: identifier = .subjectKeyIdentifier
            default:
                throw SignatureError.invalidCMS(
                    reason: "the signer is identified neither by issuer and serial number nor by key identifier")
            }
            let version = try SignedDataLayout.integer(fields[0], bytes)
            let expectedVersion = identifier == .subjectKeyIdentifier ? 3 : 1
            guard version == expectedVersion else {
                throw SignatureError.invalidCMS(
                    reason: "the SignerInfo version is \(version); its signer identifier requires \(expectedVersion)")
            }
            let hasSignedAttributes = fields.count == 6
            if hasSignedAttributes, fields[3].tag != 0xA0 {
                throw SignatureError.invalidCMS(reason: "the SignerInfo has fields it should not")
            }
            let rest = fields.suffix(2)
            guard let signatureField = rest.last, signatureField.tag == 0x04, let algorithmField = rest.first else {
                throw SignatureError.invalidCMS(reason: "the signature value is not an OCTET STRING")
            }

            digestAlgorithm = try SignedDataLayout.algorithm(fields[2], bytes)
            guard [.sha256, .sha384, .sha512].contains(digestAlgorithm) else {
                throw SignatureError.unsupportedDigest(algorithm: digestAlgorithm.name)
            }
            let signatureAlgorithm = try SignedDataLayout.algorithm(algorithmField, bytes)
            guard
                signatureAlgorithm == .rsaEncryption
                    || signatureAlgorithm == .sha256WithRSAEncryption && digestAlgorithm == .sha256
            else {
                throw SignatureError.unsupportedAlgorithm(algorithm: signatureAlgorithm.name, digest: digestAlgorithm.name)
            }
            self.positions = SignerFields(
                identifierFields: Self.identifierFields(fields[1], bytes),
                signedAttributes: hasSignedAttributes ? fields[3] : nil,
                signatureValue: signatureField.content)
        }

        private static func identifierFields(_ element: BERElement, _ bytes: [UInt8]) -> SignerFields.IdentifierFields? {
            if element.tag == 0x80 { return .subjectKeyIdentifier(element.content) }
            guard element.isDefinite, let parts = try? element.children(bytes), parts.count == 2, parts[0].tag == 0x30,
                parts[1].tag == 0x02
            else { return nil }
            return .issuerAndSerialNumber(issuer: parts[0].start..<parts[0].end, serial: parts[1].start..<parts[1].end)
        }
    }

    /// A small non-negative INTEGER in DER.
    private static func integer(_ element: BERElement, _ bytes: [UInt8]) throws -> Int {
        guard element.tag == 0x02, element.content.count == 1, bytes[element.content.lowerBound] < 0x80 else {
            throw SignatureError.invalidCMS(reason: "a version that is not a small integer")
        }
        return Int(bytes[element.content.lowerBound])
    }

    /// An AlgorithmIdentifier's algorithm; its parameters must be NULL or absent.
    private static func algorithm(_ element: BERElement, _ bytes: [UInt8]) throws -> ObjectIdentifierName {
        let fields = try element.children(bytes)
        guard element.tag == 0x30, let oid = fields.first, oid.tag == 0x06, !oid.content.isEmpty else {
            throw SignatureError.invalidCMS(reason: "an algorithm identifier is malformed")
        }
        let name = ObjectIdentifierName(der: Array(bytes[oid.content]))
        switch fields.count {
        case 1: return name
        case 2 where fields[1].tag == 0x05 && fields[1].content.isEmpty: return name
        default: throw SignatureError.invalidCMS(reason: "the algorithm \(name.name) has parameters other than NULL")
        }
    }
}

/// An object identifier as its DER content bytes, with a readable name for messages.
struct ObjectIdentifierName: Hashable {
    var der: [UInt8]

    static let signedData = Self(der: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02])
    static let data = Self(der: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01])
    static let sha256 = Self(der: [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01])
    static let sha384 = Self(der: [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02])
    static let sha512 = Self(der: [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03])
    static let rsaEncryption = Self(der: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01])
    static let sha256WithRSAEncryption = Self(der: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B])

    private static let names: [[UInt8]: String] = [
        signedData.der: "signedData", data.der: "data", sha256.der: "sha256", sha384.der: "sha384", sha512.der: "sha512",
        [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04]: "sha224", [0x2B, 0x0E, 0x03, 0x02, 0x1A]: "sha1",
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x05]: "md5", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x04]: "md4",
        rsaEncryption.der: "rsaEncryption", sha256WithRSAEncryption.der: "sha256WithRSAEncryption",
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x02]: "md2WithRSAEncryption",
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x03]: "md4WithRSAEncryption",
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x04]: "md5WithRSAEncryption",
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x05]: "sha1WithRSAEncryption",
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0A]: "rsassaPss",
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0C]: "sha384WithRSAEncryption",
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0D]: "sha512WithRSAEncryption",
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0E]: "sha224WithRSAEncryption",
    ]

    /// The common name, or the dotted form.
    var name: String {
        Self.names[der] ?? dotted
    }

    /// `1.2.840.113549.1.1.11` for the DER content `2A 86 48 86 F7 0D 01 01 0B`.
    var dotted: String {
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        for byte in der.prefix(64) {
            value = value &<< 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                if arcs.isEmpty {
                    arcs += value < 80 ? [value / 40, value % 40] : [2, value - 80]
                } else {
                    arcs.append(value)
                }
                value = 0
            }
        }
        return arcs.map(String.init).joined(separator: ".")
    }
}
