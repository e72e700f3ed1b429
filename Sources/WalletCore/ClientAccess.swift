import Foundation

/// Everything a client may see: its authorization for financial data with the accounts shared,
/// and the order types it is entitled to.
public struct ClientAccess: Hashable, Sendable, Codable {
    public var client: ClientIdentifier
    public var status: AuthorizationStatus
    /// The accounts shared (meaningful when `authorized`), keyed by account.
    public var accounts: [UUID: AccountGrant]
    /// Order types whose orders the client may save and check.
    public var orderTypeIdentifiers: Set<String>

    public init(
        client: ClientIdentifier, status: AuthorizationStatus = .notDetermined, accounts: [AccountGrant] = [],
        orderTypeIdentifiers: Set<String> = []
    ) {
        self.client = client
        self.status = status
        self.accounts = Dictionary(accounts.map { ($0.accountID, $0) }, uniquingKeysWith: { _, last in last })
        self.orderTypeIdentifiers = orderTypeIdentifiers
    }

    /// Whether the client may see `date` in `account` (shared, and not before its earliest date).
    public func allows(_ account: UUID, at date: Date) -> Bool {
        guard status == .authorized, let grant = accounts[account] else { return false }
        return grant.earliestDate.map { date >= $0 } ?? true
    }

    /// Whether the account is shared at all.
    public func shares(_ account: UUID) -> Bool {
        status == .authorized && accounts[account] != nil
    }
}
