import Foundation
import WalletCore

/// One record of the change log as background delivery reads it: with its stream, and the
/// client it is for when it records a change of that client's access (accounts shared or
/// withdrawn), nil when it is for everyone.
public struct LoggedChange: Sendable, Hashable {
    public var sequence: Int64
    public var stream: HistoryStream
    public var entityID: UUID
    public var kind: FinanceChange.Kind
    public var client: ClientIdentifier?
    /// For a deletion of a balance or transaction: the earliest of its dates a grant applies to.
    public var earliestDate: Date?

    public init(
        sequence: Int64, stream: HistoryStream, entityID: UUID, kind: FinanceChange.Kind, client: ClientIdentifier? = nil,
        earliestDate: Date? = nil
    ) {
        self.sequence = sequence
        self.stream = stream
        self.entityID = entityID
        self.kind = kind
        self.client = client
        self.earliestDate = earliestDate
    }
}
