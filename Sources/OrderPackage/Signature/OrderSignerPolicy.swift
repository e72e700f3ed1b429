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

/// Decodes exactly one DER UTF8String (tag 0x0C): ``BERElement``'s shortest-form lengths, nothing
/// after it.
enum DERUTF8String {
    static func decode(_ der: Data) -> String? {
        let bytes = [UInt8](der)
        guard let element = try? BERElement(bytes, at: 0, limit: bytes.count), element.tag == 0x0C,
            element.end == bytes.count
        else { return nil }
        return String(validating: bytes[element.content], as: UTF8.self)
    }
}
