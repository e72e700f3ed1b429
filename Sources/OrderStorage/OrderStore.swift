import Foundation
import OrderPackage
import WalletCore
import WalletPrimitives

/// The newest valid version of every order, keyed by ``FullyQualifiedOrderIdentifier``, with
/// FinanceKit's `saveOrder` and `containsOrder`.
///
/// ```swift
/// let store = OrderStore(repository: try SQLiteBackend(path: "orders.sqlite").orders)
/// switch try await store.saveOrder(signedArchive: archive) {
/// case .added: print("stored")
/// case .newerExisting: print("a newer version is already stored")
/// case .cancelled: print("declined")
/// }
/// let id = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "ORDER-123")
/// let state = try await store.containsOrder(matching: id, updatedDate: lastSeen)
/// ```
///
/// Everything is injected: the repository, the verifier (trust store, limits, clock), the consent
/// prompt, the clock stamping `addedAt`, and the access core: with one, every method that reads
/// or writes the store first checks that orders are available in this deployment and not
/// restricted (``OrderStoreError/dataRestricted``), so no caller has to.
///
/// Every method throws ``OrderStoreError`` and nothing else, but is declared with untyped
/// `throws`, as FinanceStore's are: Swift 6.3 crashes compiling the natural
/// `catch let error as OrderStoreError { … error.path ?? "-" … }` around a call with a typed
/// error (docs/design.md, "Typed throws in the public API").
public struct OrderStore: Sendable {
    public let repository: any OrderRepository
    public let verifier: OrderVerifier
    public let consent: any OrderConsentPrompt
    public let clock: @Sendable () -> Date
    /// Availability and restriction, checked before every read or write; nil: not checked.
    public let access: AccessControl?

    public init(
        repository: any OrderRepository,
        verifier: OrderVerifier = OrderVerifier(),
        consent: any OrderConsentPrompt = AddWithoutAsking(),
        clock: @escaping @Sendable () -> Date = { Date() },
        access: AccessControl? = nil
    ) {
        self.repository = repository
        self.verifier = verifier
        self.consent = consent
        self.clock = clock
        self.access = access
    }

    /// Orders are available here and not restricted: ``FinanceAccessError/dataTypeUnavailable(_:)``
    /// (a programming error, logged), else ``OrderStoreError/dataRestricted``.
    private func checkUsable(_ operation: String) async throws {
        guard let access else { return }
        try access.checkAvailable(.orders, for: operation)
        if try await access.repository.restriction(of: .orders) != nil { throw OrderStoreError.dataRestricted }
    }

    /// Verifies `signedArchive` fully, asks the consent prompt, and stores it when it is new or
    /// newer than the stored version.
    ///
    /// - Returns: `.added` when stored (or already stored byte for byte), `.newerExisting` when a
    ///   newer version is stored, `.cancelled` when the prompt declined.
    /// - Throws: ``OrderStoreError/invalidArchive(_:)`` with the verification report,
    ///   `.conflictingVersion`, `.signerChanged`, `.dataRestricted` or a storage error. Nothing is
    ///   written on any throw.
    public func saveOrder(signedArchive: Data) async throws -> SaveOrderResult {
        switch prepareOrder(signedArchive: signedArchive) {
        case .valid(let prepared): return try await saveOrder(prepared)
        case .invalid(let report): throw OrderStoreError.invalidArchive(report)
        }
    }

    /// The first half of ``saveOrder(signedArchive:)``: verification, which needs no store and may
    /// run for many archives in parallel — a verdict, not an error: the order ready to save, or
    /// the report saying why it cannot be. Save the valid ones with ``saveOrder(_:)`` in the
    /// order they should apply.
    public func prepareOrder(signedArchive: Data) -> OrderPreparation {
        let report = verifier.verify(signedArchive)
        return PreparedOrder(archive: signedArchive, report: report).map(OrderPreparation.valid) ?? .invalid(report)
    }

    /// The second half of ``saveOrder(signedArchive:)``: consent, then one transaction.
    public func saveOrder(_ prepared: PreparedOrder) async throws -> SaveOrderResult {
        try await saveOrderWithDecision(prepared).result
    }

    /// ``saveOrder(_:)``, also telling what the transaction decided: `.insert` (a new order),
    /// `.replace` (a newer version, pushed to registered devices) or `.unchanged` behind
    /// `.added`; `.keepNewer` behind `.newerExisting`; nil when the prompt declined. The merchant
    /// API answers `201` or `200` from it.
    public func saveOrderWithDecision(
        _ prepared: PreparedOrder
    ) async throws -> (result: SaveOrderResult, decision: OrderVersionPolicy.Decision?) {
        try await checkUsable("saveOrder")
        let stored = try await repository.currentVersion(of: prepared.identifier)
        return try await saveOrderWithDecision(prepared, madeFrom: stored)
    }

    /// ``saveOrderWithDecision(_:)`` for an order whose stored version the caller has read — with
    /// the restriction, which this does not check again (authoring's one read,
    /// `AuthoringBasis`): decided against `stored` without reading it again, the prompt asked, and
    /// one unit of work that decides again; with the candidate's ``OrderCandidate/basis``, that
    /// writes only while the version read is still current (`.basisChanged` otherwise).
    public func saveOrderWithDecision(
        _ prepared: PreparedOrder, madeFrom stored: StoredOrder?
    ) async throws -> (result: SaveOrderResult, decision: OrderVersionPolicy.Decision?) {
        let candidate = prepared.candidate
        // Decide before asking: nobody is asked about an order that would not be written.
        let preview = OrderVersionPolicy.decide(
            stored: stored.map {
                .init(updatedAt: $0.updatedAt, teamIdentifier: $0.teamIdentifier, archiveSHA256: $0.archiveSHA256)
            },
            incoming: candidate)
        switch preview {
        case .insert, .replace:
            guard await consent.shouldAdd(prepared.order, report: prepared.report) else { return (.cancelled, nil) }
        case .unchanged, .keepNewer, .conflict, .signerChanged, .basisChanged:
            break
        }
        // The transaction decides again: another writer may have been faster.
        let decision = try await repository.save(candidate, at: clock())
        return (try Self.result(of: decision, for: candidate), decision)
    }

    /// Whether a version of the order is stored, compared with `updatedDate`.
    ///
    /// `Date` is a floating-point number of seconds since 2001, which today resolves about
    /// 0.12 µs, so a date parsed from the stored `updatedAt` may differ from it by a rounding
    /// error. The comparison therefore treats instants within half a microsecond as equal; use
    /// ``containsOrder(matching:updatedAt:)`` to compare RFC 3339 text exactly.
    public func containsOrder(
        matching identifier: FullyQualifiedOrderIdentifier, updatedDate: Date? = nil
    ) async throws -> ContainsOrderResult {
        try await checkUsable("containsOrder")
        guard let stored = try await repository.currentUpdatedAt(of: identifier) else { return .notFound }
        guard let updatedDate else { return .exists }
        // Subtract in Date's own reference frame: whole seconds first (exact), then the fraction.
        let storedSeconds = Double(stored.secondsSinceEpoch) - Date.timeIntervalBetween1970AndReferenceDate
        let difference = (updatedDate.timeIntervalSinceReferenceDate - storedSeconds) - Double(stored.nanoseconds) / 1e9
        if abs(difference) <= 0.000_000_5 { return .exists }
        return difference > 0 ? .olderExists : .newerExists
    }

    /// Like ``containsOrder(matching:updatedDate:)``, comparing `updatedAt` exactly (to the
    /// nanosecond, whatever offset either was written with).
    public func containsOrder(
        matching identifier: FullyQualifiedOrderIdentifier, updatedAt: RFC3339Timestamp
    ) async throws -> ContainsOrderResult {
        try await checkUsable("containsOrder")
        return ContainsOrderResult(stored: try await repository.currentUpdatedAt(of: identifier), comparedWith: updatedAt)
    }

    /// The current version's metadata.
    public func order(_ identifier: FullyQualifiedOrderIdentifier) async throws -> StoredOrder? {
        try await checkUsable("order")
        return try await repository.currentVersion(of: identifier)
    }

    /// The current version decoded, for display; nil when the order is not stored.
    public func decodedOrder(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Order? {
        try await checkUsable("decodedOrder")
        guard let json = try await repository.orderJSON(of: identifier) else { return nil }
        return OrderValidator(maximumJSONDepth: verifier.limits.maximumJSONDepth).validate(json).order
    }

    /// The order.json of one stored version (current or replaced), named by its archive's
    /// SHA-256 as ``history(_:)`` lists it.
    public func orderJSON(_ identifier: FullyQualifiedOrderIdentifier, version archiveSHA256: String) async throws -> Data? {
        try await checkUsable("orderJSON")
        return try await repository.orderJSON(of: identifier, archiveSHA256: archiveSHA256)
    }

    /// The stored archive, byte for byte as it was saved.
    public func archive(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Data? {
        try await checkUsable("archive")
        return try await repository.archive(of: identifier)
    }

    public func orders(matching query: OrderQuery = OrderQuery()) async throws -> [StoredOrder] {
        try await checkUsable("orders")
        return try await repository.orders(matching: query)
    }

    /// How many stored orders match `query`, its limit and offset aside: the size of the whole
    /// listing that ``orders(matching:)`` pages through.
    public func countOrders(matching query: OrderQuery = OrderQuery()) async throws -> Int {
        try await checkUsable("countOrders")
        return try await repository.countOrders(matching: query)
    }

    /// Every version, oldest first; the last one is current.
    public func history(_ identifier: FullyQualifiedOrderIdentifier) async throws -> [StoredOrder] {
        try await checkUsable("history")
        return try await repository.history(of: identifier)
    }

    /// Deletes the order and its history; returns whether it was stored.
    public func removeOrder(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Bool {
        try await checkUsable("removeOrder")
        return try await repository.remove(identifier)
    }

    static func result(
        of decision: OrderVersionPolicy.Decision, for candidate: OrderCandidate
    ) throws(OrderStoreError) -> SaveOrderResult {
        switch decision {
        case .insert, .replace, .unchanged:
            return .added
        case .keepNewer, .basisChanged:
            return .newerExisting
        case .conflict:
            throw .conflictingVersion(candidate.identifier, updatedAt: candidate.updatedAt)
        case .signerChanged(let storedTeam):
            throw .signerChanged(candidate.identifier, storedTeam: storedTeam, incomingTeam: candidate.teamIdentifier)
        }
    }
}
