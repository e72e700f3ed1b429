import WalletPrimitives

/// A remark about a feed that was imported anyway: a key the feed format does not have.
public struct FinanceFeedWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The JSON path of the key, such as `transactions[3].merchantname`.
    public var path: String
    public var message: String

    public var description: String { "\(path): \(message)" }
}

/// The keys a feed may hold, from the record types' own `CodingKeys`, so that what is decoded and
/// what is checked cannot drift apart.
enum FinanceFeedKeys {
    /// What a JSON value should be at some place of the feed.
    indirect enum Shape: Sendable {
        case object([String: Shape])
        case array(of: Shape)
        case value
    }

    /// At most this many unknown keys are listed; a last warning counts the rest.
    static let maximumWarnings = 50

    static let amount = object(FinanceFeed.Amount.CodingKeys.self)
    static let part = object(FinanceFeed.FeedBalance.Part.CodingKeys.self, ["amount": amount])
    static let document = object(
        FinanceFeed.Document.CodingKeys.self,
        [
            "accounts": .array(
                of: object(
                    FinanceFeed.FeedAccount.CodingKeys.self,
                    [
                        "creditInformation": object(
                            FinanceFeed.FeedAccount.CreditInformation.CodingKeys.self,
                            ["creditLimit": amount, "minimumNextPaymentAmount": amount, "overduePaymentAmount": amount])
                    ])),
            "balances": .array(of: object(FinanceFeed.FeedBalance.CodingKeys.self, ["available": part, "booked": part])),
            "transactions": .array(
                of: object(
                    FinanceFeed.FeedTransaction.CodingKeys.self, ["transactionAmount": amount, "foreignCurrencyAmount": amount])),
            "deletions": object(FinanceFeed.Deletions.CodingKeys.self),
        ])

    static func object<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type, _ nested: [String: Shape] = [:]) -> Shape {
        .object(Dictionary(uniqueKeysWithValues: keys.allCases.map { ($0.stringValue, nested[$0.stringValue] ?? .value) }))
    }

    /// Unknown keys as warnings; a string holding U+0000 is an error (SQLite's C API would cut it
    /// there, see WalletStorage's `StorableText`).
    static func check(_ tree: JSONValue) throws(FinanceDataError) -> [FinanceFeedWarning] {
        var warnings: [FinanceFeedWarning] = []
        var unknown = 0
        try walk(tree, document, JSONPath([]), &warnings, &unknown)
        if unknown > warnings.count {
            warnings.append(FinanceFeedWarning(path: "", message: "\(unknown - warnings.count) more unknown keys were ignored"))
        }
        return warnings
    }

    private static func walk(
        _ value: JSONValue, _ shape: Shape, _ path: JSONPath, _ warnings: inout [FinanceFeedWarning], _ unknown: inout Int
    ) throws(FinanceDataError) {
        switch (value, shape) {
        case (.object(let object), .object(let keys)):
            for member in object.members {
                let memberPath = path.appending(member.key)
                if let nested = keys[member.key] {
                    try walk(member.value, nested, memberPath, &warnings, &unknown)
                } else {
                    unknown += 1
                    if warnings.count < maximumWarnings {
                        warnings.append(FinanceFeedWarning(path: memberPath.description, message: "unknown key, ignored"))
                    }
                    try walk(member.value, .value, memberPath, &warnings, &unknown)
                }
            }
        case (.array(let elements), .array(let element)):
            for (index, value) in elements.enumerated() {
                try walk(value, element, path.appending(index: index), &warnings, &unknown)
            }
        case (.string(let text), _):
            if text.utf8.contains(0) { throw .invalidFeed(path: path.description, reason: "the text contains U+0000") }
        case (.object(let object), _):
            for member in object.members { try walk(member.value, .value, path.appending(member.key), &warnings, &unknown) }
        case (.array(let elements), _):
            for (index, value) in elements.enumerated() {
                try walk(value, .value, path.appending(index: index), &warnings, &unknown)
            }
        default:
            break  // numbers, booleans, null; wrong types are the decoder's to report
        }
    }
}
