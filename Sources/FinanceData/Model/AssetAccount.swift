import Foundation

/// An account holding the customer's money (checking, savings).
public struct AssetAccount: Codable, Equatable, Hashable, Identifiable, Sendable {
    public let id: UUID
    public var displayName: String
    public var accountDescription: String?
    public var institutionName: String
    public var currencyCode: String
    public var openingDate: Date?

    public init(
        id: UUID, displayName: String, accountDescription: String? = nil, institutionName: String, currencyCode: String,
        openingDate: Date? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.accountDescription = accountDescription
        self.institutionName = institutionName
        self.currencyCode = currencyCode
        self.openingDate = openingDate
    }
}
