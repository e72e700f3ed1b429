import Foundation
import WalletCore

/// A client's access (`orders access status|grant|revoke|…`): its authorization status, the
/// accounts it sees (from their earliest date, null for all history) and its order types.
public struct WireClientAccess: Codable, Sendable, Hashable {
    public struct Account: Codable, Sendable, Hashable {
        public var accountID: UUID
        @Nullable public var earliestDate: Date?
    }

    public var client: String
    /// `notDetermined`, `denied` or `authorized`.
    public var status: String
    /// Sorted by account id.
    public var accounts: [Account]
    /// Sorted.
    public var orderTypes: [String]

    public init(_ access: ClientAccess) {
        client = access.client.rawValue
        status = access.status.rawValue
        accounts = access.accounts.values.sorted { $0.accountID.uuidString < $1.accountID.uuidString }
            .map { Account(accountID: $0.accountID, earliestDate: $0.earliestDate) }
        orderTypes = access.orderTypeIdentifiers.sorted()
    }
}
