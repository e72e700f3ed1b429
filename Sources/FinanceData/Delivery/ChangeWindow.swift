import Foundation
import WalletCore

/// The change-log records of one planning window, arranged once so that asking which of a
/// client's types changed costs about the streams the client shares, not the records: a
/// planning pass asks it for every endpoint (``DeliveryPlanner/changedTypes(in:among:visibleTo:dates:)``
/// has the rules).
///
/// Records for everyone are coalesced per (stream, record) when the window is built; the few
/// records of one client's access (accounts shared or withdrawn) are coalesced with them only
/// for that client, as its history would.
public struct ChangeWindow: Sendable {
    struct Key: Hashable {
        var stream: HistoryStream
        var entityID: UUID
    }

    /// The records, oldest first.
    let changes: [LoggedChange]
    /// The net records for everyone, by stream: the last record of each (stream, record), unless
    /// it appeared and disappeared within the window.
    private let shared: [HistoryStream: [LoggedChange]]
    /// Which clients' access changed within the window.
    private let clientsWithAccessChanges: Set<ClientIdentifier>

    /// - Parameter changes: change-log records, oldest first.
    public init(_ changes: [LoggedChange]) {
        self.changes = changes
        var net = Netting(capacity: changes.count)
        var clients: Set<ClientIdentifier> = []
        for change in changes {
            if let client = change.client {
                clients.insert(client)
            } else {
                net.add(change)
            }
        }
        shared = Dictionary(grouping: net.result, by: \.stream)
        clientsWithAccessChanges = clients
    }

    /// The types among `types` whose client-visible data changed in the window.
    ///
    /// - Parameters:
    ///   - access: the client's access now.
    ///   - dates: for each balance and transaction still stored that the window inserts or
    ///     updates, the dates its grant's earliest date applies to. A record missing here is gone.
    ///     Nil when they were not read because they cannot matter: the client's grants have no
    ///     earliest date, and every record the window inserts or updates without deleting it
    ///     again is still stored (the window reaches the end of the log).
    public func changedTypes(
        among types: Set<BackgroundDataType>, visibleTo access: ClientAccess, dates: [UUID: [Date]]?
    ) -> Set<BackgroundDataType> {
        guard access.status == .authorized else { return [] }
        // Records this client's own access changes touch are netted with the others on the same
        // (stream, record), for this client alone.
        var mixed: Set<Key> = []
        var mixedNet: [LoggedChange] = []
        if clientsWithAccessChanges.contains(access.client) {
            mixed = Set(changes.filter { $0.client == access.client }.map { Key(stream: $0.stream, entityID: $0.entityID) })
            var net = Netting()
            for change in changes
            where mixed.contains(Key(stream: change.stream, entityID: change.entityID))
                && (change.client == access.client || (change.client == nil && Self.isOnSharedStream(change, of: access)))
            {
                net.add(change)
            }
            mixedNet = net.result
        }
        var changed: Set<BackgroundDataType> = []
        for type in types {
            if mixedNet.contains(where: { type.covers($0.stream) && Self.isVisible($0, to: access, dates: dates) }) {
                changed.insert(type)
                continue
            }
            search: for (stream, records) in shared where type.covers(stream) {
                if let account = stream.accountID, !access.shares(account) { continue }
                for change in records
                where Self.isOnSharedStream(change, of: access) && Self.isVisible(change, to: access, dates: dates)
                    && (mixed.isEmpty || !mixed.contains(Key(stream: change.stream, entityID: change.entityID)))
                {
                    changed.insert(type)
                    break search
                }
            }
        }
        return changed
    }

    /// A record for everyone on an account the client shares.
    private static func isOnSharedStream(_ change: LoggedChange, of access: ClientAccess) -> Bool {
        switch change.stream {
        case .accounts: access.shares(change.entityID)
        case .balances(let account), .transactions(let account): access.shares(account)
        }
    }

    private static func isVisible(_ change: LoggedChange, to access: ClientAccess, dates: [UUID: [Date]]?) -> Bool {
        // Access changes, and an account record, are shown by the stream alone; a deletion by
        // what the log kept of the record, as a history read judges it.
        if change.client != nil { return true }
        if change.kind == .delete {
            return HistoryVisibility.showsDeletion(
                of: change.entityID, on: change.stream, recordedFor: nil, earliestDate: change.earliestDate, to: access)
        }
        guard let account = change.stream.accountID, let dates else { return true }
        guard let recordDates = dates[change.entityID] else { return false }
        return recordDates.allSatisfy { access.allows(account, at: $0) }
    }

    /// Coalesces records per (stream, record) as a history batch does: the last of each, in the
    /// order each first appeared, unless it was inserted and deleted again.
    private struct Netting {
        /// Per (stream, record): its first kind, and where its last record is in `order`.
        private var seen: [Key: (first: FinanceChange.Kind, index: Int)] = [:]
        /// The last record of each (stream, record), in the order each first appeared.
        private var order: [LoggedChange] = []

        init(capacity: Int = 0) {
            seen.reserveCapacity(capacity)
            order.reserveCapacity(capacity)
        }

        mutating func add(_ change: LoggedChange) {
            let key = Key(stream: change.stream, entityID: change.entityID)
            if let index = seen[key]?.index {
                order[index] = change
            } else {
                seen[key] = (change.kind, order.count)
                order.append(change)
            }
        }

        var result: [LoggedChange] {
            order.filter { change in
                !(change.kind == .delete && seen[Key(stream: change.stream, entityID: change.entityID)]?.first == .insert)
            }
        }
    }
}
