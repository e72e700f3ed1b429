import Foundation

/// A history stream (FinanceKit's `History`): an `AsyncSequence` of ``Changes``.
///
/// With `since: nil` it first delivers the current state as `inserted`, then changes. With
/// `isMonitoring: false` it finishes once caught up; with `true` it keeps delivering changes as
/// data is ingested, by this process or another. Errors (a restriction, revoked access, an
/// invalid token) surface from the iterator's `next()`.
///
/// ```swift
/// for try await changes in store.transactionHistory(forAccountID: account, since: savedToken, isMonitoring: false) {
///     apply(changes.inserted, changes.updated, changes.deleted)
///     savedToken = changes.newToken
/// }
/// ```
public struct History<Model: Identifiable & Sendable>: AsyncSequence, Sendable where Model.ID == UUID {
    public typealias Element = Changes<Model>

    let makeReader: @Sendable () -> HistoryReader<Model>

    init(makeReader: @escaping @Sendable () -> HistoryReader<Model>) {
        self.makeReader = makeReader
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: makeReader())
    }

    public struct Iterator: AsyncIteratorProtocol {
        let reader: HistoryReader<Model>

        public func next() async throws -> Changes<Model>? {
            try await reader.next()
        }
    }
}
