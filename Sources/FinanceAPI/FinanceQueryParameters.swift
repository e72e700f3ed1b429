import FinanceData
import Foundation
import OrderPackage
import OrdersWebProtocol
import ServiceCore
import WalletConsent
import WalletPrimitives

/// The data API's query parameters, read as FinanceKit's queries: the transaction filters of the
/// query helpers (statuses, types, merchant category codes), dates, a text search, a sort, and
/// paging by `limit` and an opaque `cursor`.
struct FinanceQueryParameters {
    let fields: FormFields

    static let defaultLimit = 100
    static let maximumLimit = 500

    init(_ fields: FormFields) {
        self.fields = fields
    }

    /// `limit`: 1–500, 100 when absent.
    func limit() throws(ServiceRequestError) -> Int {
        guard let text = try single("limit") else { return Self.defaultLimit }
        guard let limit = Int(text), (1...Self.maximumLimit).contains(limit) else {
            throw .invalidParameter(name: "limit", reason: "a count from 1 to \(Self.maximumLimit)")
        }
        return limit
    }

    /// `offset`: 0 or more, 0 when absent.
    func offset() throws(ServiceRequestError) -> Int {
        guard let text = try single("offset") else { return 0 }
        guard let offset = Int(text), (0...1_000_000_000).contains(offset) else {
            throw .invalidParameter(name: "offset", reason: "a count from 0 to 1,000,000,000")
        }
        return offset
    }

    /// An RFC 3339 date-time, or a day (`2026-03-01`, its start in UTC).
    func date(_ name: String) throws(ServiceRequestError) -> Date? {
        guard let text = try single(name) else { return nil }
        if let timestamp = RFC3339Timestamp(text) { return timestamp.date }
        if text.utf8.count == 10, let day = RFC3339Timestamp(text + "T00:00:00Z") { return day.date }
        throw .invalidParameter(name: name, reason: "an RFC 3339 date-time or a day (YYYY-MM-DD)")
    }

    func uuid(_ name: String) throws(ServiceRequestError) -> UUID? {
        guard let text = try single(name) else { return nil }
        guard let id = UUID(uuidString: text) else { throw .invalidParameter(name: name, reason: "not an id (a UUID)") }
        return id
    }

    /// Every value of `name` as one of the enum's case names (`pending`, `pointOfSale`).
    func cases<Value: NamedCases>(_ name: String, as type: Value.Type) throws(ServiceRequestError) -> [Value] {
        var values: [Value] = []
        for text in fields.values(name) {
            guard let value = Value(name: text) else {
                throw .invalidParameter(name: name, reason: "one of \(Value.allCases.map(\.name).joined(separator: ", "))")
            }
            values.append(value)
        }
        return values
    }

    /// The transaction query of `account`, `status`, `type`, `mcc`, `merchant`, `since`,
    /// `until`, `q` and `sort`, without its page.
    func transactionQuery() throws -> TransactionQuery {
        var codes: [MerchantCategoryCode] = []
        for text in fields.values("mcc") {
            guard let code = MerchantCategoryCode(text) else {
                throw ServiceRequestError.invalidParameter(name: "mcc", reason: "a merchant category code (0–9999)")
            }
            codes.append(code)
        }
        let filter = TransactionFilter(
            accountID: try uuid("account"), statuses: try cases("status", as: TransactionStatus.self),
            transactionTypes: try cases("type", as: TransactionType.self), merchantCategoryCodes: codes,
            merchantName: try text("merchant"), since: try date("since"), until: try date("until"))
        var query = TransactionQuery(sortDescriptors: try transactionSort(), predicate: filter.predicate)
        if let search = try text("q") {
            guard search.count <= 200 else {
                throw ServiceRequestError.invalidParameter(name: "q", reason: "at most 200 characters")
            }
            query.textSearch = search
        }
        return query
    }

    /// `sort=FIELD[:desc]`: effectiveDate (default), transactionDate, postedDate, amount,
    /// merchantName.
    private func transactionSort() throws -> [SortDescriptor<Transaction>] {
        guard let text = try single("sort") else { return [] }
        do {
            return try TransactionSort(text).descriptors
        } catch {
            throw ServiceRequestError.invalidParameter(
                name: "sort", reason: "FIELD or FIELD:desc, FIELD one of " + TransactionSort.fields.joined(separator: ", "))
        }
    }

    /// Where a page of transactions starts: 0 (no cursor, or an empty one), or the `cursor` a
    /// previous page of the same query returned. A cursor is refused for another query.
    func cursorOffset() throws(ServiceRequestError) -> Int {
        guard let text = try text("cursor") else { return 0 }
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0] == fingerprint.prefix(16), let offset = Int(parts[1]), offset >= 0 else {
            throw .invalidParameter(name: "cursor", reason: "not a cursor of this query; start without one")
        }
        return offset
    }

    /// The cursor of the page after one that ended at `offset`.
    func cursor(at offset: Int) -> String {
        "\(fingerprint.prefix(16)).\(offset)"
    }

    /// The query's parameters but its page, in one canonical form, hashed.
    private var fingerprint: String {
        let canonical = fields.pairs.filter { $0.name != "cursor" && $0.name != "limit" }
            .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        return SHA256Digest.hex(of: Data(FormFields(pairs: canonical).encoded.utf8))
    }

    /// The one value of `name`; given twice is an error.
    func single(_ name: String) throws(ServiceRequestError) -> String? {
        let values = fields.values(name)
        guard values.count <= 1 else { throw .invalidParameter(name: name, reason: "given more than once") }
        return values.first
    }

    /// ``single(_:)``, nil also when empty: an empty text field means nothing chosen.
    func text(_ name: String) throws(ServiceRequestError) -> String? {
        try single(name).flatMap { $0.isEmpty ? nil : $0 }
    }
}
