import Foundation
import WalletOrders
import WalletPrimitives

/// Printing financial data: signed amounts with their currency, and JSON.
enum FinanceOutput {
    static func date(_ date: Date?) -> String {
        date.map { RFC3339Timestamp($0).text } ?? "-"
    }

    /// `2026-11-19` for tables.
    static func day(_ date: Date) -> String {
        String(RFC3339Timestamp(date).text.prefix(10))
    }

    static func parseAccount(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw CommandFailure("\(MessageText.quote(text)) is not an account id (a UUID)")
        }
        return id
    }
}
