import Foundation

/// An account the customer owes on (a credit card, a loan).
public struct LiabilityAccount: Codable, Equatable, Hashable, Identifiable, Sendable {
    public let id: UUID
    public var displayName: String
    public var accountDescription: String?
    public var institutionName: String
    public var currencyCode: String
    public var openingDate: Date?
    public var creditInformation: AccountCreditInformation

    public init(
        id: UUID, displayName: String, accountDescription: String? = nil, institutionName: String, currencyCode: String,
        openingDate: Date? = nil, creditInformation: AccountCreditInformation = AccountCreditInformation()
    ) {
        self.id = id
        self.displayName = displayName
        self.accountDescription = accountDescription
        self.institutionName = institutionName
        self.currencyCode = currencyCode
        self.openingDate = openingDate
        self.creditInformation = creditInformation
    }
}
