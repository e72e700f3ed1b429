import Foundation
import WalletPrimitives

/// Validates `order.json` against Apple's schema and decodes it into an ``Order``.
///
/// Every problem is reported, each with a JSON path (`fulfillments[0].status`), not just the
/// first; the ``Order`` is produced only when there are no errors. Warnings (unknown keys,
/// numeric amounts) never block.
///
/// ```swift
/// let validation = OrderValidator().validate(orderJSON)
/// for error in validation.errors { print(error.issue) }
/// ```
public struct OrderValidator: Sendable {
    public static let fileName = "order.json"

    public var maximumJSONDepth: Int

    public init(maximumJSONDepth: Int = 64) {
        self.maximumJSONDepth = maximumJSONDepth
    }

    /// The outcome of validating `order.json` alone (resources are checked by the verifier,
    /// which knows the package's files).
    public struct Validation: Sendable {
        /// The decoded order, when there are no errors.
        public var order: Order?
        public var errors: [OrderError]
        public var warnings: [OrderError]
        /// Best-effort identity of the order, available even when it is invalid.
        public var summary: OrderSummary
        /// Files that order.json refers to, with where.
        var fileReferences: [OrderFindings.FileReference]
    }

    public func validate(_ data: Data) -> Validation {
        let findings = OrderFindings()
        let document: JSONParser.Document
        do {
            document = try JSONParser(maximumDepth: maximumJSONDepth).parse(data)
        } catch {
            findings.record(.invalidJSON(reason: error.sentence(about: "order.json"), path: error.jsonPath))
            return Validation(order: nil, errors: findings.errors, warnings: [], summary: OrderSummary(), fileReferences: [])
        }
        let root = document.value
        // The parser noted whether any key has one: the document is walked for their paths only then.
        if document.hasControlCharacterKey { Self.recordControlCharacterKeys(in: root, at: .root, findings: findings) }
        let summary = OrderSummary(root)
        var order: Order?
        if let reader = OrderObjectReader(root, at: .root, findings: findings) {
            order = Self.readOrder(reader)
            reader.finish()
        }
        return Validation(
            order: findings.errors.isEmpty ? order : nil,
            errors: findings.errors,
            warnings: findings.warnings,
            summary: summary,
            fileReferences: findings.fileReferences
        )
    }

    /// Every key anywhere in the document that holds a control character, each an error at its
    /// path (such a key is never one of the schema's, and would reach a log or a page as it is).
    private static func recordControlCharacterKeys(in value: JSONValue, at path: JSONPath, findings: OrderFindings) {
        switch value {
        case .object(let object):
            for member in object.members {
                let memberPath = path.appending(member.key)
                if hasControlCharacter(member.key) { findings.record(.invalidKey(memberPath)) }
                recordControlCharacterKeys(in: member.value, at: memberPath, findings: findings)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                recordControlCharacterKeys(in: element, at: path.appending(index: index), findings: findings)
            }
        default:
            break
        }
    }

    /// U+0000–U+001F, U+007F and the C1 controls U+0080–U+009F (UTF-8 `C2 80`–`C2 9F`).
    static func hasControlCharacter(_ key: String) -> Bool {
        key.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    // MARK: - Order

    private static func readOrder(_ reader: OrderObjectReader) -> Order? {
        let schemaVersion = reader.integer("schemaVersion", required: true)
        if let schemaVersion, schemaVersion != 1 {
            reader.findings.record(
                .invalidValue(
                    reader.path.appending("schemaVersion"),
                    reason:
                        "\(schemaVersion) is not a supported schema version: Apple's Order reference documents version 1 only (docs/order-format.md, \"schemaVersion\")"
                ))
        }
        let orderTypeIdentifier = reader.identifier("orderTypeIdentifier")
        let orderIdentifier = reader.identifier("orderIdentifier")
        let orderType = reader.enumeration("orderType", required: true, as: Order.OrderType.self)
        let orderManagementURL = reader.url("orderManagementURL", required: true)
        let createdAt = reader.timestamp("createdAt", required: true)
        let updatedAt = reader.timestamp("updatedAt", required: true)
        if let createdAt, let updatedAt, updatedAt < createdAt {
            reader.findings.record(
                .invalidDate(
                    reader.path.appending("updatedAt"),
                    reason: "updatedAt (\(updatedAt)) is earlier than createdAt (\(createdAt))"))
        }
        let status = reader.enumeration("status", required: true, as: Order.Status.self)
        let merchant = reader.object("merchant", required: true, readMerchant)

        let webServiceURL = reader.url("webServiceURL", httpsOnly: true)
        let authenticationToken = reader.string("authenticationToken")
        if reader.value("webServiceURL", required: false) != nil {
            if let token = authenticationToken {
                if token.count < 16 {
                    reader.findings.record(
                        .invalidValue(
                            reader.path.appending("authenticationToken"),
                            reason: "the token has \(token.count) characters; at least 16 are required"))
                }
            } else if reader.value("authenticationToken", required: false) == nil {
                reader.findings.record(.missingKey(reader.path.appending("authenticationToken")))
            }
        } else if authenticationToken != nil {
            reader.findings.record(.tokenWithoutWebService(reader.path.appending("authenticationToken")))
        }

        let associatedApplications = reader.objects("associatedApplications", readApplication)
        let associatedApplicationIdentifiers = reader.strings("associatedApplicationIdentifiers")
        let barcode = reader.object("barcode", readBarcode)
        let customer = reader.object("customer", readCustomer)
        let payment = reader.object("payment", readPayment)
        let changeNotifications = reader.enumeration("changeNotifications", as: Order.ChangeNotifications.self)
        let fulfillments = reader.objects("fulfillments", readFulfillment)
        let lineItems = reader.objects("lineItems", readLineItem)
        let orderNumber = reader.string("orderNumber")
        let statusDescription = reader.string("statusDescription")
        let orderProvider = reader.object("orderProvider", readOrderProvider)
        let returnInfo = reader.object("returnInfo", readReturnInfo)
        let returns = reader.objects("returns", readReturn)

        guard let schemaVersion, let orderTypeIdentifier, let orderIdentifier, let orderType, let orderManagementURL,
            let createdAt, let updatedAt, let status, let merchant
        else { return nil }
        return Order(
            schemaVersion: Int(schemaVersion), orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: orderIdentifier,
            orderType: orderType, orderManagementURL: orderManagementURL, createdAt: createdAt, updatedAt: updatedAt,
            status: status, merchant: merchant, authenticationToken: authenticationToken, webServiceURL: webServiceURL,
            associatedApplications: associatedApplications, associatedApplicationIdentifiers: associatedApplicationIdentifiers,
            barcode: barcode, customer: customer, payment: payment, changeNotifications: changeNotifications,
            fulfillments: fulfillments, lineItems: lineItems, orderNumber: orderNumber, statusDescription: statusDescription,
            orderProvider: orderProvider, returnInfo: returnInfo, returns: returns
        )
    }
}
