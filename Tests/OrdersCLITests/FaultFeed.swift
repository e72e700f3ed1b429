import Foundation
import Testing

/// Feeds of many transactions in the sample's checking account.
enum FaultFeed {
    /// The checking account's transactions in Samples/finance-feed.json.
    static let sampleIdentifiers: [UUID] = (1...5).compactMap {
        UUID(uuidString: String(format: "A1000000-0000-4000-8000-%012d", $0))
    }

    /// Writes a feed of `transactions` new transactions (identifiers unique to `batch`) and
    /// returns their identifiers.
    static func write(to url: URL, batch: Int, transactions count: Int) throws -> [UUID] {
        var ids: [UUID] = []
        var records: [String] = []
        for index in 0..<count {
            let id = String(format: "%08X-0000-4000-8000-%012X", batch, index)
            ids.append(try #require(UUID(uuidString: id)))
            let day = String(format: "2026-%02d-%02dT12:00:00Z", 1 + index % 12, 1 + index % 28)
            records.append(
                """
                {"id":"\(id)","accountID":"\(FaultInjectionTests.checking)",\
                "transactionAmount":{"amount":"\(index % 500).\(String(format: "%02d", index % 100))","currencyCode":"EUR"},\
                "creditDebitIndicator":"debit","transactionDescription":"Purchase \(batch)-\(index)",\
                "transactionType":"pointOfSale","status":"booked","transactionDate":"\(day)","postedDate":"\(day)"}
                """)
        }
        let account = """
            {"id":"\(FaultInjectionTests.checking)","type":"asset","displayName":"Everyday Account",\
            "institutionName":"Example Bank","currencyCode":"EUR","openingDate":"2024-03-01T00:00:00Z"}
            """
        let feed = "{\"accounts\":[\(account)],\"transactions\":[\(records.joined(separator: ",\n"))]}"
        try Data(feed.utf8).write(to: url)
        return ids
    }
}
