import Foundation
import WalletPrimitives

/// An account: an asset (money held) or a liability (money owed).
///
/// Codable as the wrapped account's fields plus `"type": "asset"` or `"liability"`.
public enum Account: Codable, Equatable, Hashable, Identifiable, Sendable {
    case asset(AssetAccount)
    case liability(LiabilityAccount)

    /// Which side of the balance sheet an account is on; decides the sign of amounts.
    public enum Kind: String, CaseIterable, Codable, Hashable, Sendable {
        case asset, liability

        /// Decodes `"asset"` or `"liability"`; anything else is named, clipped, in the error.
        public init(from decoder: any Decoder) throws {
            self = try decoder.decodeText(Kind.init(rawValue:), expected: "one of asset, liability")
        }
    }

    public var kind: Kind {
        switch self {
        case .asset: .asset
        case .liability: .liability
        }
    }

    public var id: UUID {
        switch self {
        case .asset(let account): account.id
        case .liability(let account): account.id
        }
    }

    public var displayName: String {
        switch self {
        case .asset(let account): account.displayName
        case .liability(let account): account.displayName
        }
    }

    public var accountDescription: String? {
        switch self {
        case .asset(let account): account.accountDescription
        case .liability(let account): account.accountDescription
        }
    }

    public var institutionName: String {
        switch self {
        case .asset(let account): account.institutionName
        case .liability(let account): account.institutionName
        }
    }

    public var currencyCode: String {
        switch self {
        case .asset(let account): account.currencyCode
        case .liability(let account): account.currencyCode
        }
    }

    public var openingDate: Date? {
        switch self {
        case .asset(let account): account.openingDate
        case .liability(let account): account.openingDate
        }
    }

    public var assetAccount: AssetAccount? {
        if case .asset(let account) = self { return account }
        return nil
    }

    public var liabilityAccount: LiabilityAccount? {
        if case .liability(let account) = self { return account }
        return nil
    }

    private enum TypeKey: String, CodingKey {
        case type
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        switch try container.decode(Kind.self, forKey: .type) {
        case .asset: self = .asset(try AssetAccount(from: decoder))
        case .liability: self = .liability(try LiabilityAccount(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(kind, forKey: .type)
        switch self {
        case .asset(let account): try account.encode(to: encoder)
        case .liability(let account): try account.encode(to: encoder)
        }
    }
}
