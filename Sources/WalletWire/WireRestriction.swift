import Foundation
import WalletCore

/// Whether a data type is restricted (`orders restrict`), and since when (null if it is not).
public struct WireRestriction: Codable, Sendable, Hashable {
    public var dataType: String
    public var restricted: Bool
    @Nullable public var since: Date?

    public init(_ dataType: DataType, since: Date?) {
        self.dataType = dataType.rawValue
        restricted = since != nil
        self.since = since
    }
}
