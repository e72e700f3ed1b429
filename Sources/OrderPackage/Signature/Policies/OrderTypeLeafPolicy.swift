/// The leaf is an Order Type ID certificate for this order: its extended key usage holds
/// 1.2.840.113635.100.4.19, its 1.2.840.113635.100.14.2 extension is a DER UTF8String naming the
/// order's type, and its subject UID (when present) names it too. Judged only on a chain of
/// Apple's shape (``AppleChainShapePolicy`` reports the others).
struct OrderTypeLeafPolicy: SignerChainPolicy {
    static let orderTypeUsage = "1.2.840.113635.100.4.19"
    static let passTypeUsage = "1.2.840.113635.100.4.14"
    static let orderTypeIdentifierExtension = "1.2.840.113635.100.14.2"
    static let passTypeIdentifierExtension = "1.2.840.113635.100.6.1.16"

    /// Nil when order.json could not supply one: the identifier checks are then skipped.
    let orderTypeIdentifier: String?

    func violations(of chain: [X509Certificate]) -> [SignatureError] {
        guard chain.count == 3 else { return [] }
        let leaf = chain[0]
        var violations: [SignatureError] = []
        let usages = leaf.extendedKeyUsages
        if !usages.contains(Self.orderTypeUsage) {
            let kind = usages.contains(Self.passTypeUsage) ? " (it is a Pass Type ID certificate)" : ""
            violations.append(
                .notOrderTypeCertificate(reason: "the leaf's extended key usage lacks \(Self.orderTypeUsage)\(kind)"))
        }
        guard let markerValue = leaf.extensionValue(oid: Self.orderTypeIdentifierExtension) else {
            let kind =
                leaf.hasExtension(oid: Self.passTypeIdentifierExtension) ? " (it carries a pass type identifier instead)" : ""
            violations.append(
                .notOrderTypeCertificate(
                    reason: "the leaf has no order type identifier extension \(Self.orderTypeIdentifierExtension)\(kind)"))
            return violations
        }
        guard let certificateType = DERUTF8String.decode(markerValue) else {
            violations.append(
                .notOrderTypeCertificate(
                    reason: "the leaf's \(Self.orderTypeIdentifierExtension) extension is not a DER UTF8String"))
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
