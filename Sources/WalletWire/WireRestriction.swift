import Foundation
import WalletCore

/// Whether a data type is restricted (`orders restrict`), and since when (null if it is not).
public struct WireRestriction: Codable, Sendable, Hashable {
    public var dataType: String
    public var restricted: Bool
    public var since: Date?

    public init(_ dataType: DataType, since: Date?) {
        self.dataType = dataType.rawValue
        restricted = since != nil
        self.since = since
    }

    private enum CodingKeys: String, CodingKey {
        case dataType, restricted, since
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dataType, forKey: .dataType)
        try container.encode(restricted, forKey: .restricted)
        try container.encode(since, forKey: .since)
    }
}
