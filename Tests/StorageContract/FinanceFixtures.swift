import FinanceData
import Foundation
import TestArchiveTable
import WalletCore

/// Generated financial data, the same for every backend.
public enum FinanceFixtures {
    public static let base = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    public static func asset(_ id: UUID = UUID(), name: String = "Everyday", currency: String = "EUR") -> Account {
        .asset(
            AssetAccount(id: id, displayName: name, institutionName: "Example Bank", currencyCode: currency, openingDate: base))
    }

    /// Deterministic pseudo-random transactions spread over `accounts`, with every field varied.
    public static func transactions(count: Int, accounts: [UUID], seed: UInt64 = 7) -> [Transaction] {
        var random = SplitMix64(state: seed)
        let merchants = ["Café", "Cafe\u{301}", "Bakery", "Grocer", "Zoo", "apple", "Apple", nil]
        return (0..<count).map { index in
            let date = base.addingTimeInterval(
                Double(Int.random(in: 0..<90 * 86_400, using: &random)) + Double(Int.random(in: 0..<1_000_000, using: &random))
                    / 1e6)
            let posted: Date? =
                Bool.random(using: &random)
                ? date.addingTimeInterval(Double(Int.random(in: 0..<3 * 86_400, using: &random))) : nil
            return Transaction(
                id: UUID(uuid: uuidBytes(UInt64(index), seed)),
                accountID: accounts[Int.random(in: 0..<accounts.count, using: &random)],
                transactionAmount: CurrencyAmount(
                    amount: Decimal(Int.random(in: 1..<100_000, using: &random)) / 100, currencyCode: "EUR"),
                creditDebitIndicator: Bool.random(using: &random) ? .debit : .credit,
                transactionDescription: "Purchase \(index)", originalTransactionDescription: "POS \(index)",
                merchantCategoryCode: Bool.random(using: &random)
                    ? MerchantCategoryCode(rawValue: [5411, 5812, 5814, 4111][Int.random(in: 0..<4, using: &random)]) : nil,
                merchantName: merchants[Int.random(in: 0..<merchants.count, using: &random)],
                transactionType: TransactionType.allCases[Int.random(in: 0..<TransactionType.allCases.count, using: &random)],
                status: TransactionStatus.allCases[Int.random(in: 0..<TransactionStatus.allCases.count, using: &random)],
                transactionDate: date, postedDate: posted)
        }
    }

    private static func uuidBytes(_ index: UInt64, _ seed: UInt64) -> uuid_t {
        var random = SplitMix64(state: index &* 31 &+ seed)
        var bytes = [UInt8](repeating: 0, count: 16)
        for position in 0..<16 { bytes[position] = UInt8.random(in: 0...255, using: &random) }
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
            bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }

    public static func access(_ accounts: [UUID], earliest: Date? = nil) -> ClientAccess {
        ClientAccess(
            client: "com.example.tests", status: .authorized,
            accounts: accounts.map { AccountGrant(accountID: $0, earliestDate: earliest) })
    }
}
