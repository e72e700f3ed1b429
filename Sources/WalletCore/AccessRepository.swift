import Foundation

/// Where restrictions, authorizations, entitlements and history cursors live: in the store
/// itself, so that every process using the store sees the same state and a change needs no
/// restart.
public protocol AccessRepository: Sendable {
    /// When the data type was restricted, or nil when it is not.
    func restriction(of type: DataType) async throws(StorageError) -> Date?
    func setRestricted(_ type: DataType, _ restricted: Bool, at time: Date) async throws(StorageError)

    /// The client's access; `notDetermined` with nothing shared for an unknown client.
    func access(for client: ClientIdentifier) async throws(StorageError) -> ClientAccess
    /// Every client with a recorded decision or entitlement.
    func clients() async throws(StorageError) -> [ClientAccess]

    /// Records the answer to a prompt, only if the client is still `notDetermined`; returns the
    /// access now in force (the earlier decision if another caller answered first).
    func recordDecision(
        _ decision: AuthorizationDecision, for client: ClientIdentifier, at time: Date
    ) async throws(StorageError) -> ClientAccess
    /// Authorizes the client (whatever its status) and shares these accounts, replacing the
    /// earliest dates of accounts already shared.
    func grant(_ accounts: [AccountGrant], to client: ClientIdentifier, at time: Date) async throws(StorageError)
    /// Denies financial data to the client (as answering the prompt with no).
    func deny(_ client: ClientIdentifier, at time: Date) async throws(StorageError)
    /// Withdraws access. With no accounts given: everything; the client becomes `denied` and its
    /// history cursors are deleted. Otherwise only those accounts stop being shared.
    func revoke(_ client: ClientIdentifier, accounts: [UUID], at time: Date) async throws(StorageError)

    /// The restriction of orders and whether the client is entitled to one order type, in one
    /// read: ``access(for:)`` reads the whole access for a question with a yes-or-no answer.
    func orderTypeAccess(
        of client: ClientIdentifier, to orderTypeIdentifier: String
    ) async throws(StorageError) -> OrderTypeAccess

    func entitle(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws(StorageError)
    func removeEntitlements(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws(StorageError)

    /// A new cursor for one client reading one history stream; its id goes into the tokens.
    func createCursor(for client: ClientIdentifier, stream: String, at time: Date) async throws(StorageError) -> Int64
    /// Whether the cursor exists and belongs to this client and stream.
    func isCursorValid(_ id: Int64, for client: ClientIdentifier, stream: String) async throws(StorageError) -> Bool

    /// A random identity of this store file, so that tokens from another store are refused.
    func storeGeneration() async throws(StorageError) -> String
}
