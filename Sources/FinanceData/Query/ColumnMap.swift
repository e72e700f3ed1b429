import Foundation

/// How a model's key paths map to indexed stored columns: what query translation may use.
struct ColumnMap: Sendable {
    enum Kind: Sendable {
        /// Integer microseconds (``Microseconds``).
        case date
        /// `UUID.uuidString`.
        case uuid
        /// A `RawRepresentable` with an `Int16` raw value (enums, merchant category codes).
        case code
        /// NFC-normalized text.
        case text
    }

    struct Column: Sendable, Hashable {
        var name: String
        var kind: Kind
        var nullable: Bool
    }

    /// A path of key paths from the model, one per member access: `$0.transactionAmount.currencyCode`
    /// is `[\Transaction.transactionAmount, \CurrencyAmount.currencyCode]`.
    struct Path: Hashable, @unchecked Sendable {
        // @unchecked: key paths are immutable values; AnyKeyPath is not marked Sendable.
        var components: [AnyKeyPath]

        func appending(_ keyPath: AnyKeyPath) -> Path {
            Path(components: components + [keyPath])
        }
    }

    let model: Any.Type
    let columns: [Path: Column]
    /// Paths to optional parts of the model (`$0.available`) and the condition that they exist.
    let optionalParts: [Path: StoredFilter]
    /// Key paths a `SortDescriptor` may name, and the column that orders the same way.
    let sortKeys: [AnyKeyPathBox: Column]

    init(
        model: Any.Type, columns: [([AnyKeyPath], Column)], optionalParts: [([AnyKeyPath], StoredFilter)] = [],
        sortKeys: [(AnyKeyPath, Column)] = []
    ) {
        self.model = model
        self.columns = Dictionary(columns.map { (Path(components: $0.0), $0.1) }, uniquingKeysWith: { first, _ in first })
        self.optionalParts = Dictionary(
            optionalParts.map { (Path(components: $0.0), $0.1) }, uniquingKeysWith: { first, _ in first })
        self.sortKeys = Dictionary(sortKeys.map { (AnyKeyPathBox($0.0), $0.1) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A hashable, sendable key path, for dictionary keys.
struct AnyKeyPathBox: Hashable, @unchecked Sendable {
    let keyPath: AnyKeyPath
    init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}

extension ColumnMap {
    static let transactions = ColumnMap(
        model: Transaction.self,
        columns: [
            ([\Transaction.id], Column(name: "id", kind: .uuid, nullable: false)),
            ([\Transaction.accountID], Column(name: "accountID", kind: .uuid, nullable: false)),
            ([\Transaction.status], Column(name: "status", kind: .code, nullable: false)),
            ([\Transaction.transactionType], Column(name: "transactionType", kind: .code, nullable: false)),
            ([\Transaction.creditDebitIndicator], Column(name: "creditDebitIndicator", kind: .code, nullable: false)),
            ([\Transaction.merchantCategoryCode], Column(name: "merchantCategoryCode", kind: .code, nullable: true)),
            ([\Transaction.merchantName], Column(name: "merchantNameKey", kind: .text, nullable: true)),
            ([\Transaction.transactionDate], Column(name: "transactionDate", kind: .date, nullable: false)),
            ([\Transaction.postedDate], Column(name: "postedDate", kind: .date, nullable: true)),
            ([\Transaction.effectiveDate], Column(name: "effectiveDate", kind: .date, nullable: false)),
            (
                [\Transaction.transactionAmount, \CurrencyAmount.currencyCode],
                Column(name: "currencyCode", kind: .text, nullable: false)
            ),
        ],
        sortKeys: [
            (\Transaction.transactionDate, Column(name: "transactionDate", kind: .date, nullable: false)),
            (\Transaction.postedDate, Column(name: "postedDate", kind: .date, nullable: true)),
            (\Transaction.effectiveDate, Column(name: "effectiveDate", kind: .date, nullable: false)),
        ])

    static let balances = ColumnMap(
        model: AccountBalance.self,
        columns: [
            ([\AccountBalance.id], Column(name: "id", kind: .uuid, nullable: false)),
            ([\AccountBalance.accountID], Column(name: "accountID", kind: .uuid, nullable: false)),
            ([\AccountBalance.available, \Balance.asOfDate], Column(name: "availableAsOf", kind: .date, nullable: false)),
            ([\AccountBalance.booked, \Balance.asOfDate], Column(name: "bookedAsOf", kind: .date, nullable: false)),
            ([\AccountBalance.currencyCode], Column(name: "currencyCode", kind: .text, nullable: false)),
        ],
        optionalParts: [
            ([\AccountBalance.available], .present(.column("availableAsOf"))),
            ([\AccountBalance.booked], .present(.column("bookedAsOf"))),
        ])

    static let accounts = ColumnMap(
        model: Account.self,
        columns: [
            ([\Account.id], Column(name: "id", kind: .uuid, nullable: false)),
            ([\Account.displayName], Column(name: "displayNameKey", kind: .text, nullable: false)),
            ([\Account.institutionName], Column(name: "institutionNameKey", kind: .text, nullable: false)),
            ([\Account.currencyCode], Column(name: "currencyCode", kind: .text, nullable: false)),
            ([\Account.openingDate], Column(name: "openingDate", kind: .date, nullable: true)),
        ],
        sortKeys: [(\Account.openingDate, Column(name: "openingDate", kind: .date, nullable: true))])
}
