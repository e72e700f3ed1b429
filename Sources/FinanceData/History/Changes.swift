/// One batch of a history stream (FinanceKit's `Changes`): what was inserted, updated and
/// deleted, and the token to resume after it. Apply `deleted` too: ignoring deletions makes
/// deleted records reappear on the next catch-up.
public struct Changes<Model: Identifiable & Sendable>: Sendable where Model.ID: Sendable {
    public let inserted: [Model]
    public let updated: [Model]
    public let deleted: [Model.ID]
    public let newToken: HistoryToken

    public init(inserted: [Model], updated: [Model], deleted: [Model.ID], newToken: HistoryToken) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.newToken = newToken
    }
}
