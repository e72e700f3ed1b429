import Foundation
import WalletPrimitives

/// Apple's acceptance policy for order signers (`SecPolicyCreateOrderBundleSigner`), applied to
/// a chain that OpenSSL already verified:
///
/// | Check | Requirement |
/// |---|---|
/// | Chain | exactly leaf → intermediate → root |
/// | Intermediate | carries the WWDR marker extension 1.2.840.113635.100.6.2.1 |
/// | Leaf EKU | contains 1.2.840.113635.100.4.19 (Order Type ID) |
/// | Leaf marker | 1.2.840.113635.100.14.2, a DER UTF8String, equals `orderTypeIdentifier` |
/// | Leaf subject UID | equals `orderTypeIdentifier` |
///
/// The team identifier is the leaf's subject OU. It is reported, never compared with the
/// `merchantIdentifier` (a different namespace).
enum OrderSignerPolicy {
    static let intermediateMarker = "1.2.840.113635.100.6.2.1"
    static let orderTypeUsage = "1.2.840.113635.100.4.19"
    static let passTypeUsage = "1.2.840.113635.100.4.14"
    static let orderTypeIdentifierExtension = "1.2.840.113635.100.14.2"
    static let passTypeIdentifierExtension = "1.2.840.113635.100.6.1.16"

    /// Every policy violation of `chain` (leaf first) for an order of type `orderTypeIdentifier`
    /// (nil when order.json could not supply one; the identifier checks are then skipped).
    static func violations(chain: [X509Certificate], orderTypeIdentifier: String?) -> [SignatureError] {
        guard chain.count == 3 else {
            let shape = chain.map(\.subjectDescription).joined(separator: " → ")
            return [
                .notOrderTypeCertificate(
                    reason: "the chain has \(chain.count) certificates (\(shape)); Apple requires leaf → WWDR intermediate → root"
                )
            ]
        }
        let leaf = chain[0]
        let intermediate = chain[1]
        var violations: [SignatureError] = []
        if !intermediate.hasExtension(oid: intermediateMarker) {
            violations.append(
                .notOrderTypeCertificate(
                    reason:
                        "the intermediate \(MessageText.quote(intermediate.subjectDescription)) lacks the Apple WWDR marker \(intermediateMarker)"
                )
            )
        }
        let usages = leaf.extendedKeyUsages
        if !usages.contains(orderTypeUsage) {
            let kind = usages.contains(passTypeUsage) ? " (it is a Pass Type ID certificate)" : ""
            violations.append(.notOrderTypeCertificate(reason: "the leaf's extended key usage lacks \(orderTypeUsage)\(kind)"))
        }
        guard let markerValue = leaf.extensionValue(oid: orderTypeIdentifierExtension) else {
            let kind = leaf.hasExtension(oid: passTypeIdentifierExtension) ? " (it carries a pass type identifier instead)" : ""
            violations.append(
                .notOrderTypeCertificate(
                    reason: "the leaf has no order type identifier extension \(orderTypeIdentifierExtension)\(kind)"))
            return violations
        }
        guard let certificateType = DERUTF8String.decode(markerValue) else {
            violations.append(
                .notOrderTypeCertificate(reason: "the leaf's \(orderTypeIdentifierExtension) extension is not a DER UTF8String"))
            return violations
        }
        if let orderTypeIdentifier {
            if certificateType != orderTypeIdentifier {
                violations.append(.typeIdentifierMismatch(certificate: certificateType, order: orderTypeIdentifier))
            } else if let uid = leaf.userID, uid != orderTypeIdentifier {
                violations.append(.typeIdentifierMismatch(certificate: "subject UID \(uid)", order: orderTypeIdentifier))
            }
        }
        return violations
    }

    /// The order type identifier named by the leaf's marker extension, if it has a valid one.
    static func orderTypeIdentifier(of leaf: X509Certificate) -> String? {
        leaf.extensionValue(oid: orderTypeIdentifierExtension).flatMap(DERUTF8String.decode)
    }
}

/// Decodes exactly one DER UTF8String (tag 0x0C), long-form lengths included.
enum DERUTF8String {
    static func decode(_ der: Data) -> String? {
        let bytes = [UInt8](der)
        guard bytes.count >= 2, bytes[0] == 0x0C else { return nil }
        var length = 0
        var offset = 2
        if bytes[1] < 0x80 {
            length = Int(bytes[1])
        } else {
            let lengthBytes = Int(bytes[1] & 0x7F)
            // DER: long form only for lengths ≥ 128, minimal, at most 4 length bytes here.
            guard (1...4).contains(lengthBytes), bytes.count >= 2 + lengthBytes, bytes[2] != 0 else { return nil }
            for byte in bytes[2..<2 + lengthBytes] { length = length << 8 | Int(byte) }
            guard length >= 0x80 else { return nil }
            offset = 2 + lengthBytes
        }
        guard bytes.count == offset + length else { return nil }
        return String(validating: bytes[offset...], as: UTF8.self)
    }
}
