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
    /// By endpoint, then type: each endpoint's types are one run of ``endpoints``.
    private(set) var types: [PlannedType]
    /// Where each endpoint's types are in ``types``.
    private let endpoints: [Range<Int>]
    private(set) var report = DeliveryPlanReport()

    init(at time: Date, on connection: any SQLConnection) async throws {
        self.time = time
        // A pass sees each of a few clients on many rows: each identifier is checked once.
        var clients: [String: ClientIdentifier] = [:]
        let types = try await connection.fetch(
            """
            SELECT t.endpoint, e.client, e.disabledAt, t.type, t.frequency, t.scannedThrough, t.changed, t.owed, t.lastPlannedAt,
              EXISTS (SELECT 1 FROM deliveryOutbox o WHERE o.endpoint = t.endpoint)
            FROM deliveryTypes t JOIN deliveryEndpoints e ON e.id = t.endpoint ORDER BY t.endpoint, t.type
            """
        ) { row in
            let clientText = try row.text(1)
            guard let client = clients[clientText] ?? ClientIdentifier(rawValue: clientText) else {
                throw FinanceRows.CorruptRow(column: 1, value: clientText)
            }
            clients[clientText] = client
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
        var endpoints: [Range<Int>] = []
        var start = types.startIndex
        for index in types.indices.dropFirst() where types[index].endpoint != types[start].endpoint {
            endpoints.append(start..<index)
            start = index
        }
        if !types.isEmpty { endpoints.append(start..<types.endIndex) }
        self.types = types
        self.endpoints = endpoints
    }

    /// Reads up to `limit` change-log records past the lowest position and marks, for each type
    /// behind them, whether its client may see a change among the records past its own position.
    /// A position below the compaction horizon lost records: its types count as changed. Clients'
    /// access comes from `cache`, read again only when it changed.
    mutating func scan(limit: Int, access cache: PlannerAccessCache, on connection: any SQLConnection) async throws {
        guard let lowest = types.map(\.state.scannedThrough).min() else { return }
        let bounds = try await FinanceChangeLog.bounds(on: connection)
        guard lowest < bounds.latest else { return }
        let access = try await cache.accesses(
            for: Set(types.filter { $0.state.scannedThrough < bounds.latest }.map(\.client)), on: connection)
        // The dates grants apply to matter only to grants with an earliest date, and whether a
        // record is still stored only to a window that stops before the end of the log.
        let needsDates =
            bounds.latest - lowest > Int64(limit)
            || access.values.contains { $0.accounts.values.contains { $0.earliestDate != nil } }
        let (records, dates) = try await Self.records(
            after: lowest, through: bounds.latest, limit: limit, withDates: needsDates, on: connection)
        let through = records.count < limit ? bounds.latest : records.last?.sequence ?? bounds.latest
        report.scanned = records.count
        report.moreToScan = through < bounds.latest

        // Endpoints read from the same position share one window (usually all of them); an
        // endpoint's types usually share one position.
        var windows: [Int64: ChangeWindow] = [:]
        for run in endpoints {
            let client = types[run.lowerBound].client
            let behind = Dictionary(
                grouping: run.filter { types[$0].state.scannedThrough < through }, by: { types[$0].state.scannedThrough })
            for (after, indices) in behind {
                let among = Set(indices.map { types[$0].state.type })
                let changed: Set<BackgroundDataType>
                if after < bounds.compactedThrough {
                    changed = among
                } else {
                    let changes =
                        windows[after] ?? ChangeWindow(records.filter { $0.sequence > after && $0.sequence <= through })
                    windows[after] = changes
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
    }

    /// Unless financial data is restricted, writes a delivery for each enabled endpoint with
    /// nothing pending that a changed type may wake (``FinanceData/DeliveryPlanner``), and
    /// records the delivery's time on all the endpoint's types.
    mutating func decide(on connection: any SQLConnection) async throws {
        report.restricted = try await connection.returnsRow(
            "SELECT 1 FROM restrictions WHERE dataType = $1", [.text(DataType.financialData.rawValue)])
        guard !report.restricted else { return }
        var rows: [[SQLValue]] = []
        for indices in endpoints {
            guard types[indices.lowerBound].isEnabled, !types[indices.lowerBound].hasPending,
                let delivered = DeliveryPlanner.typesToDeliver(types[indices].map(\.state), at: time)
            else { continue }
            rows.append([
                .text(UUID().text), .text(types[indices.lowerBound].endpoint),
                .text(SQLBackgroundDeliveryRepository.storedTypes(delivered)), .instant(time), .instant(time),
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

    /// Writes back the states this pass changed: one statement for each new state and the set
    /// of an endpoint's types that take it, naming every endpoint alike (a pass usually moves
    /// all of every endpoint's types to one state).
    func save(on connection: any SQLConnection) async throws {
        struct Written: Hashable {
            var scannedThrough: Int64
            var changed: Bool
            var owed: Bool
            var lastPlannedAt: Date?
            var notBefore: Date?
        }
        struct Group: Hashable {
            var state: Written
            var types: [BackgroundDataType]
        }
        var groups: [Group: [String]] = [:]
        for run in endpoints {
            let states = Dictionary(
                grouping: run.filter { types[$0].modified },
                by: { index in
                    let state = types[index].state
                    return Written(
                        scannedThrough: state.scannedThrough, changed: state.changed, owed: state.owed,
                        lastPlannedAt: state.lastPlannedAt,
                        notBefore: state.lastPlannedAt?.addingTimeInterval(state.frequency.interval))
                })
            for (state, indices) in states {
                groups[Group(state: state, types: indices.map { types[$0].state.type }.sorted()), default: []].append(
                    types[run.lowerBound].endpoint)
            }
        }
        for (group, endpoints) in groups {
            let typeList = SQLPlaceholders.list(from: 6, count: group.types.count)
            for first in stride(from: 0, to: endpoints.count, by: 500) {
                let chunk = endpoints[first..<min(first + 500, endpoints.count)]
                let state = group.state
                try await connection.execute(
                    """
                    UPDATE deliveryTypes SET scannedThrough = $1, changed = $2, owed = $3, lastPlannedAt = $4, notBefore = $5
                    WHERE type IN (\(typeList)) AND endpoint IN (\(SQLPlaceholders.list(from: 6 + group.types.count, count: chunk.count)))
                    """,
                    [
                        .integer(state.scannedThrough), .integer(state.changed ? 1 : 0), .integer(state.owed ? 1 : 0),
                        .instant(state.lastPlannedAt), .instant(state.notBefore),
                    ] + group.types.map { .text($0.rawValue) } + chunk.map { .text($0) }, reusable: false)
            }
        }
    }

    /// Change-log records after `after`, through `through`, oldest first; and, `withDates`, for
    /// each balance and transaction they insert or update that the store still holds, the dates
    /// a grant's earliest date applies to (``FinanceData/GrantVisibility``'s columns), read by the
    /// same statement.
    private static func records(
        after: Int64, through: Int64, limit: Int, withDates: Bool, on connection: any SQLConnection
    ) async throws -> ([LoggedChange], [UUID: [Date]]?) {
        // A window has a few streams and many records: each stream's text is parsed once.
        var streams: [String: HistoryStream] = [:]
        var dates: [UUID: [Date]] = [:]
        let sql =
            withDates
            ? """
            SELECT c.sequence, c.stream, c.entityID, c.kind, c.client, t.transactionDate, b.availableAsOf, b.bookedAsOf,
              t.id IS NOT NULL OR b.id IS NOT NULL, c.earliestDate
            FROM financeChanges c
            LEFT JOIN transactions t ON c.kind <> 'delete' AND substr(c.stream, 1, 13) = 'transactions/' AND t.id = c.entityID
            LEFT JOIN balances b ON c.kind <> 'delete' AND substr(c.stream, 1, 9) = 'balances/' AND b.id = c.entityID
            WHERE c.sequence > $1 AND c.sequence <= $2 ORDER BY c.sequence LIMIT $3
            """
            : """
            SELECT sequence, stream, entityID, kind, client, NULL, NULL, NULL, NULL, earliestDate FROM financeChanges
            WHERE sequence > $1 AND sequence <= $2 ORDER BY sequence LIMIT $3
            """
        let records = try await connection.fetch(sql, [.integer(after), .integer(through), .integer(Int64(limit))]) { row in
            let streamText = try row.text(1)
            guard let stream = streams[streamText] ?? HistoryStream(description: streamText) else {
                throw FinanceRows.CorruptRow(column: 1, value: streamText)
            }
            streams[streamText] = stream
            let entity = try row.text(2)
            guard let id = UUID(text: entity) else { throw FinanceRows.CorruptRow(column: 2, value: entity) }
            let kindText = try row.text(3)
            guard let kind = FinanceChange.Kind(rawValue: kindText) else {
                throw FinanceRows.CorruptRow(column: 3, value: kindText)
            }
            if withDates, try row.bool(8) {
                dates[id] = try [row.optionalInteger(5), row.optionalInteger(6), row.optionalInteger(7)].compactMap {
                    $0.map(Microseconds.date)
                }
            }
            return LoggedChange(
                sequence: try row.integer(0), stream: stream, entityID: id, kind: kind,
                client: try row.optionalText(4).flatMap(ClientIdentifier.init(rawValue:)),
                earliestDate: try row.optionalInteger(9).map(Microseconds.date))
        }
        return (records, withDates ? dates : nil)
    }
}
