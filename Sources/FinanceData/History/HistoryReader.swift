import Foundation
import WalletCore

/// The state of one iteration over a history stream.
///
/// A stream starts either from a token (validated: same store, same stream, cursor not revoked,
/// not below the compaction horizon) or from nothing, in which case it registers a cursor and
/// delivers the current state, page by page in id order, as `inserted`. Tokens handed out during
/// that catch-up remember the last id delivered, so resuming continues the catch-up. Then it
/// delivers the change log from the sequence current when the catch-up began, coalesced per
/// record and filtered by what the client may see.
actor HistoryReader<Model: Identifiable & Sendable> where Model.ID == UUID {
    let source: HistorySource<Model>
    let since: HistoryToken?
    let isMonitoring: Bool
    private var position: HistoryToken.Position?
    private var finished = false

    init(source: HistorySource<Model>, since: HistoryToken?, isMonitoring: Bool) {
        self.source = source
        self.since = since
        self.isMonitoring = isMonitoring
    }

    func next() async throws -> Changes<Model>? {
        guard !finished else { return nil }
        do {
            guard let changes = try await nextBatch() else {
                finished = true
                return nil
            }
            return changes
        } catch {
            finished = true
            // A store read interrupted by cancellation fails with the store's own error (its
            // protocol's typed throw); the caller cancelled, so that is what it hears.
            if Task.isCancelled, !(error is CancellationError) { throw CancellationError() }
            throw error
        }
    }

    private func nextBatch() async throws -> Changes<Model>? {
        while true {
            let access = try await source.authorize()
            var position: HistoryToken.Position
            if let current = self.position { position = current } else { position = try await start() }
            let batchSize = max(1, source.configuration.batchSize)

            if let after = position.catchUpAfter {
                let page = try await source.snapshot(access, after, batchSize)
                position.catchUpAfter = page.count < batchSize ? nil : page.last?.id.uuidString
                self.position = position
                return Changes(inserted: page, updated: [], deleted: [], newToken: HistoryToken(position: position))
            }

            let bounds = try await source.repository.historyBounds()
            guard position.sequence >= bounds.compactedThrough else { throw FinanceError.historyTokenInvalid }
            if bounds.latest > position.sequence {
                let records = try await source.repository.changes(
                    in: source.stream, for: source.client, after: position.sequence, through: bounds.latest, limit: batchSize)
                position.sequence = records.count < batchSize ? bounds.latest : (records.last?.sequence ?? bounds.latest)
                self.position = position
                let net = Self.coalesce(records)
                let visible = try await source.load(net.inserted + net.updated, access)
                let byID = Dictionary(visible.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) as [UUID: Model]
                let inserted = net.inserted.compactMap { byID[$0] }
                let updated = net.updated.compactMap { byID[$0] }
                let deleted = net.deleted.filter { deletion in
                    HistoryVisibility.showsDeletion(
                        of: deletion.entityID, on: source.stream, recordedFor: deletion.client,
                        earliestDate: deletion.earliestDate, to: access)
                }.map(\.entityID)
                if inserted.isEmpty && updated.isEmpty && deleted.isEmpty { continue }
                return Changes(inserted: inserted, updated: updated, deleted: deleted, newToken: HistoryToken(position: position))
            }

            guard isMonitoring else { return nil }
            try await Task.sleep(for: source.configuration.pollInterval)
        }
    }

    /// The position to start from: the token's, validated, or a new cursor at the current end of
    /// the change log with the catch-up still to do.
    private func start() async throws -> HistoryToken.Position {
        let generation = try await source.access.storeGeneration()
        let stream = source.stream.description
        if let since {
            let token = since.position
            let cursorValid = try await source.access.isCursorValid(token.cursor, for: source.client, stream: stream)
            let horizon = try await source.repository.historyBounds().compactedThrough
            guard token.generation == generation, token.stream == stream, cursorValid, token.sequence >= horizon else {
                throw FinanceError.historyTokenInvalid
            }
            position = token
            return token
        }
        let cursor = try await source.access.createCursor(for: source.client, stream: stream, at: source.clock())
        let latest = try await source.repository.historyBounds().latest
        let fresh = HistoryToken.Position(
            generation: generation, stream: stream, cursor: cursor, sequence: latest, catchUpAfter: "")
        position = fresh
        return fresh
    }

    /// The net effect of a window of change records on each record: inserted then deleted is
    /// nothing; anything that ends deleted is deleted (with its last record, which says what the
    /// log kept of it); otherwise inserted if it began with an insert, else updated. Order of
    /// first appearance is kept.
    static func coalesce(_ records: [FinanceChange]) -> (inserted: [UUID], updated: [UUID], deleted: [FinanceChange]) {
        var first: [UUID: FinanceChange.Kind] = [:]
        var last: [UUID: FinanceChange] = [:]
        var order: [UUID] = []
        for record in records {
            if first[record.entityID] == nil {
                first[record.entityID] = record.kind
                order.append(record.entityID)
            }
            last[record.entityID] = record
        }
        var result: (inserted: [UUID], updated: [UUID], deleted: [FinanceChange]) = ([], [], [])
        for id in order {
            guard let final = last[id] else { continue }
            switch (first[id], final.kind) {
            case (.insert?, .delete): continue
            case (_, .delete): result.deleted.append(final)
            case (.insert?, _): result.inserted.append(id)
            default: result.updated.append(id)
            }
        }
        return result
    }
}

extension History {
    /// A history stream over `source`.
    public init(source: HistorySource<Model>, since token: HistoryToken?, isMonitoring: Bool) {
        self.init { HistoryReader(source: source, since: token, isMonitoring: isMonitoring) }
    }
}
