import Foundation

/// Asks a person whether a client may see their financial data, and which accounts from when
/// (the sheet a device shows for `requestAuthorization()`). Injected, so tests and servers decide
/// how the question is put.
public protocol AuthorizationPrompt: Sendable {
    func requestAuthorization(for client: ClientIdentifier, accounts: [AccountChoice]) async -> AuthorizationDecision
}

/// An account as the prompt shows it.
public struct AccountChoice: Hashable, Sendable, Codable {
    public var id: UUID
    public var displayName: String
    public var institutionName: String

    public init(id: UUID, displayName: String, institutionName: String) {
        self.id = id
        self.displayName = displayName
        self.institutionName = institutionName
    }
}

/// The person's answer.
public enum AuthorizationDecision: Hashable, Sendable {
    /// Authorized, sharing these accounts (possibly none: FinanceKit's "No Accounts" sheet).
    case authorized([AccountGrant])
    case denied
    /// No answer: the prompt was dismissed, or its input ended. Nothing is recorded; the client
    /// stays `.notDetermined` and the next request asks again.
    case dismissed
}

/// Denies every request: the safe default for a server with nobody to ask.
public struct DenyingAuthorizationPrompt: AuthorizationPrompt {
    public init() {}

    public func requestAuthorization(for client: ClientIdentifier, accounts: [AccountChoice]) async -> AuthorizationDecision {
        .denied
    }
}
