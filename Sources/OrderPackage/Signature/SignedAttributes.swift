import Foundation

/// A SignerInfo's signed attributes, read for ``SignerSignatureCheck``: what the signature covers,
/// the messageDigest and the signingTime.
///
/// The signature covers the attributes' DER encoding with the tag of a `SET OF` (RFC 5652 §5.4).
/// OpenSSL's `CMS_verify` decodes the attributes and encodes them again to get those bytes; the
/// two agree only where the encoding received is already the one OpenSSL writes. So only a shape
/// for which they provably agree is read here, and anything else is left to `CMS_verify`
/// (``init(_:in:)`` returns nil):
///
/// - every length definite and in its shortest form (``BERElement`` refuses other definite forms);
/// - each attribute a `SEQUENCE { OID, SET { one value } }` (OpenSSL sorts a set of several values);
/// - contentType (`id-data`) and messageDigest exactly once each, signingTime at most once, as a
///   UTCTime `YYMMDDHHMMSSZ` or GeneralizedTime `YYYYMMDDHHMMSSZ` naming a real instant;
///   sMIMECapabilities at most once, a `SEQUENCE` (OpenSSL keeps a `SEQUENCE` value's bytes as
///   received); no other attribute.
///
/// `FuzzTesting/Sources/FuzzSignatureDifferential` holds this agreement against `CMS_verify`.
struct SignedAttributes {
    /// The bytes the signer signed: the attributes as a DER `SET OF`.
    var signedBytes: [UInt8]
    /// The messageDigest attribute's octets.
    var messageDigest: ArraySlice<UInt8>
    /// The signingTime attribute's instant, if there is one.
    var signingTime: Date?

    static let contentType = ObjectIdentifierName(der: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03])
    static let messageDigestType = ObjectIdentifierName(der: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04])
    static let signingTimeType = ObjectIdentifierName(der: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x05])
    static let smimeCapabilities = ObjectIdentifierName(der: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x0F])

    /// Reads the `[0]` signed attributes `element` of `bytes`; nil when they are outside the shape
    /// above.
    init?(_ element: BERElement, in bytes: [UInt8]) {
        guard element.isDefinite, let attributes = try? element.children(bytes) else { return nil }
        var seen = Set<[UInt8]>()
        var contentTypeSeen = false
        var digest: ArraySlice<UInt8>?
        var time: Date?
        for attribute in attributes {
            guard attribute.tag == 0x30, attribute.isDefinite, let fields = try? attribute.children(bytes),
                fields.count == 2, fields[0].tag == 0x06, fields[1].tag == 0x31, fields[1].isDefinite,
                let values = try? fields[1].children(bytes), values.count == 1, values[0].isDefinite
            else { return nil }
            let type = Array(bytes[fields[0].content])
            guard seen.insert(type).inserted else { return nil }
            let value = values[0]
            switch type {
            case Self.contentType.der:
                guard value.tag == 0x06, bytes[value.content] == ObjectIdentifierName.data.der[...] else { return nil }
                contentTypeSeen = true
            case Self.messageDigestType.der:
                guard value.tag == 0x04 else { return nil }
                digest = bytes[value.content]
            case Self.signingTimeType.der:
                guard let instant = DERTime.date(tag: value.tag, bytes[value.content]) else { return nil }
                time = instant
            case Self.smimeCapabilities.der:
                guard value.tag == 0x30 else { return nil }
            default:
                return nil
            }
        }
        guard contentTypeSeen, let digest else { return nil }
        signedBytes = BERElement.encode(0x31, Array(bytes[element.content]))
        messageDigest = digest
        signingTime = time
    }
}
