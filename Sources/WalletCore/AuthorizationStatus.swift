/// A client's authorization for financial data (FinanceKit's `AuthorizationStatus`).
public enum AuthorizationStatus: String, CaseIterable, Codable, Equatable, Hashable, Sendable {
    case authorized
    case denied
    case notDetermined
}
