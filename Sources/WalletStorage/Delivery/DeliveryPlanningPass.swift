import FinanceData
import Foundation
import WalletCore
import WalletPrimitives

/// One pass of ``SQLBackgroundDeliveryRepository/planDeliveries(at:scanLimit:)`` inside its unit
/// of work: every endpoint type's state read, the change log scanned past them, deliveries
/// decided, and the states that changed written back.
struct PlanningPass {
    /// One data type of one endpoint, with what deciding needs of its endpoint.
    struct PlannedType {
        var endpoint: String
        var client: ClientIdentifier
        var isEnabled: Bool
        var hasPending: Bool
        var state: DeliveryTypeState
        var modified = false
    }

    let time: Date
    private(set) var types: [PlannedType]
    private(set) var report = DeliveryPlanReport()

    init(at time: Date, on connection: any SQLConnection) async throws {
        self.time = time
        types = try await connection.fetch(
            """
            SELECT t.endpoint, e.client, e.disabledAt, t.type, t.frequency, t.scannedThrough, t.changed, t.owed, t.lastPlannedAt,
              EXISTS (SELECT 1 FROM deliveryOutbox o WHERE o.endpoint = t.endpoint)
            FROM deliveryTypes t JOIN deliveryEndpoints e ON e.id = t.endpoint ORDER BY t.endpoint, t.type
            """
        ) { row in
            let clientText = try row.text(1)
            guard let client = ClientIdentifier(rawValue: clientText) else {
                throw FinanceRows.CorruptRow(column: 1, value: clientText)
            }
            let typeText = try row.text(3)
            guard let type = BackgroundDataType(rawValue: typeText) else {
                throw FinanceRows.CorruptRow(column: 3, value: typeText)
            }
            let frequencyText = try row.text(4)
            guard let frequency = UpdateFrequency(rawValue: frequencyText) else {
                throw FinanceRows.CorruptRow(column: 4, value: frequencyText)
            }
            return PlannedType(
                endpoint: try row.text(0), client: client, isEnabled: try row.optionalInteger(2) == nil,
                hasPending: try row.bool(9),
                state: DeliveryTypeState(
                    type: type, frequency: frequency, scannedThrough: try row.integer(5), changed: try row.integer(6) != 0,
                    owed: try row.integer(7) != 0, lastPlannedAt: try row.optionalInteger(8).map(Microseconds.date)))
        }
    }

    /// Reads up to `limit` change-log records past the lowest position and marks, for each type
    /// behind them, whether its client may see a change among the records past its own position.
    /// A position below the compaction horizon lost records: its types count as changed.
    mutating func scan(limit: Int, on connection: any SQLConnection) async throws {
        guard let lowest = types.map(\.state.scannedThrough).min() else { return }
        let bounds = try await FinanceChangeLog.bounds(on: connection)
        guard lowest < bounds.latest else { return }
        let (records, dates) = try await Self.records(after: lowest, through: bounds.latest, limit: limit, on: connection)
        let through = records.count < limit ? bounds.latest : records.last?.sequence ?? bounds.latest
        report.scanned = records.count
        report.moreToScan = through < bounds.latest

        let behind = types.indices.filter { types[$0].state.scannedThrough < through }
        let access = try await SQLAccessRepository.accesses(for: Set(behind.map { types[$0].client }), on: connection)
        struct Window: Hashable {
            var endpoint: String
            var after: Int64
        }
        // Endpoints read from the same position share one window (usually all of them).
        var windows: [Int64: ChangeWindow] = [:]
        for (window, indices) in Dictionary(
            grouping: behind, by: { Window(endpoint: types[$0].endpoint, after: types[$0].state.scannedThrough) })
        {
            let among = Set(indices.map { types[$0].state.type })
            let changed: Set<BackgroundDataType>
            if window.after < bounds.compactedThrough {
                changed = among
            } else {
                let client = types[indices[0]].client
                let changes =
                    windows[window.after]
                    ?? ChangeWindow(records.filter { $0.sequence > window.after && $0.sequence <= through })
                windows[window.after] = changes
                changed = changes.changedTypes(
                    among: among, visibleTo: access[client] ?? ClientAccess(client: client), dates: dates)
            }
            for index in indices {
                types[index].state.scannedThrough = through
                if changed.contains(types[index].state.type) { types[index].state.changed = true }
                types[index].modified = true
            }
        }
    }

    /// Unless financial data is restricted, writes a delivery for each enabled endpoint with
    /// nothing pending that a changed type may wake (``FinanceData/DeliveryPlanner``), and
    /// records the delivery's time on all the endpoint's types.
    mutating func decide(on connection: any SQLConnection) async throws {
        report.restricted = try await connection.returnsRow(
            "SELECT 1 FROM restrictions WHERE dataType = $1", [.text(DataType.financialData.rawValue)])
        guard !report.restricted else { return }
        let byEndpoint = Dictionary(grouping: types.indices, by: { types[$0].endpoint })
        var rows: [[SQLValue]] = []
        for endpoint in byEndpoint.keys.sorted() {
            guard let indices = byEndpoint[endpoint], types[indices[0]].isEnabled, !types[indices[0]].hasPending,
                let delivered = DeliveryPlanner.typesToDeliver(indices.map { types[$0].state }, at: time)
            else { continue }
            rows.append([
                .text(UUID().uuidString), .text(endpoint), .text(SQLBackgroundDeliveryRepository.storedTypes(delivered)),
                .instant(time), .instant(time),
            ])
            for index in indices {
                if delivered.contains(types[index].state.type) {
                    types[index].state.changed = false
                    types[index].state.owed = false
                }
                types[index].state.lastPlannedAt = time
                types[index].modified = true
            }
            report.planned += 1
        }
        // 100 rows a statement (500 values: under both engines' limits).
        for first in stride(from: 0, to: rows.count, by: 100) {
            let chunk = rows[first..<min(first + 100, rows.count)]
            try await connection.execute(
                "INSERT INTO deliveryOutbox (deliveryID, endpoint, types, occurredAt, nextAttemptAt) VALUES "
                    + SQLPlaceholders.rows(chunk.count, width: 5), chunk.flatMap { $0 }, reusable: chunk.count == 100)
        }
    }

    /// Writes back the states this pass changed: one statement for each type and new state,
    /// naming its endpoints (a pass usually moves every endpoint's types alike).
    func save(on connection: any SQLConnection) async throws {
        struct Written: Hashable {
            var type: BackgroundDataType
            var scannedThrough: Int64
            var changed: Bool
            var owed: Bool
            var lastPlannedAt: Date?
            var notBefore: Date?
        }
        let groups = Dictionary(
            grouping: types.filter(\.modified),
            by: {
                Written(
                    type: $0.state.type, scannedThrough: $0.state.scannedThrough, changed: $0.state.changed,
                    owed: $0.state.owed, lastPlannedAt: $0.state.lastPlannedAt,
                    notBefore: $0.state.lastPlannedAt?.addingTimeInterval($0.state.frequency.interval))
            })
        for (state, planned) in groups {
            let endpoints = planned.map(\.endpoint)
            for first in stride(from: 0, to: endpoints.count, by: 500) {
                let chunk = endpoints[first..<min(first + 500, endpoints.count)]
                try await connection.execute(
                    """
                    UPDATE deliveryTypes SET scannedThrough = $2, changed = $3, owed = $4, lastPlannedAt = $5, notBefore = $6
                    WHERE type = $1 AND endpoint IN (\(SQLPlaceholders.list(from: 7, count: chunk.count)))
                    """,
                    [
                        .text(state.type.rawValue), .integer(state.scannedThrough), .integer(state.changed ? 1 : 0),
                        .integer(state.owed ? 1 : 0), .instant(state.lastPlannedAt), .instant(state.notBefore),
                    ] + chunk.map { .text($0) }, reusable: false)
            }
        }
    }

    /// Change-log records after `after`, through `through`, oldest first; and for each balance
    /// and transaction they insert or update that the store still holds, the dates a grant's
    /// earliest date applies to (``FinanceData/GrantVisibility``'s columns), read by the same
    /// statement.
    private static func records(
        after: Int64, through: Int64, limit: Int, on connection: any SQLConnection
    ) async throws -> ([LoggedChange], [UUID: [Date]]) {
        // A window has a few streams and many records: each stream's text is parsed once.
        var streams: [String: HistoryStream] = [:]
        var dates: [UUID: [Date]] = [:]
        let records = try await connection.fetch(
            """
            SELECT c.sequence, c.stream, c.entityID, c.kind, c.client, t.transactionDate, b.availableAsOf, b.bookedAsOf,
              t.id IS NOT NULL OR b.id IS NOT NULL
            FROM financeChanges c
            LEFT JOIN transactions t ON c.kind <> 'delete' AND substr(c.stream, 1, 13) = 'transactions/' AND t.id = c.entityID
            LEFT JOIN balances b ON c.kind <> 'delete' AND substr(c.stream, 1, 9) = 'balances/' AND b.id = c.entityID
            WHERE c.sequence > $1 AND c.sequence <= $2 ORDER BY c.sequence LIMIT $3
            """, [.integer(after), .integer(through), .integer(Int64(limit))]
        ) { row in
            let streamText = try row.text(1)
            guard let stream = streams[streamText] ?? HistoryStream(description: streamText) else {
                throw FinanceRows.CorruptRow(column: 1, value: streamText)
            }
            streams[streamText] = stream
            let entity = try row.text(2)
            guard let id = UUID(uuidString: entity) else { throw FinanceRows.CorruptRow(column: 2, value: entity) }
            let kindText = try row.text(3)
            guard let kind = FinanceChange.Kind(rawValue: kindText) else {
                throw FinanceRows.CorruptRow(column: 3, value: kindText)
            }
            if try row.bool(8) {
                dates[id] = try [row.optionalInteger(5), row.optionalInteger(6), row.optionalInteger(7)].compactMap {
                    $0.map(Microseconds.date)
                }
            }
            return LoggedChange(
                sequence: try row.integer(0), stream: stream, entityID: id, kind: kind,
                client: try row.optionalText(4).flatMap(ClientIdentifier.init(rawValue:)))
        }
        return (records, dates)
    }
}
