import Foundation
import OrderPackage
import OrderStorage
import OrderTracking
import WalletCore
import WalletPrimitives

extension WalletStore {
    /// Configures a provider's webhook for `orderTypeIdentifiers` (docs/tracking.md): the
    /// provider posts to `/api/v1/tracking/{provider}/{identifier}`, signing each body with one
    /// of `secrets` (one, or two while rotating).
    ///
    /// - Throws: ``OrderTracking/TrackingError/invalidConfiguration(reason:)`` for the generic
    ///   provider (a merchant API key authenticates it), no order type, or secrets other than
    ///   one or two non-empty lines of at most 512 characters.
    public func addTrackingEndpoint(
        provider: TrackingProvider, orderTypeIdentifiers: [String], secrets: [String]
    ) async throws -> TrackingEndpoint {
        try await control.checkUsable(.orders, for: "addTrackingEndpoint")
        guard provider.signsBodies else {
            throw TrackingError.invalidConfiguration(
                reason: "the generic event needs no endpoint: a merchant API key posts it to /api/v1/tracking/events")
        }
        let types = Array(Set(orderTypeIdentifiers)).sorted()
        guard !types.isEmpty, !types.contains(where: { $0.isEmpty || $0.contains(where: \.isNewline) }) else {
            throw TrackingError.invalidConfiguration(reason: "name at least one order type the endpoint's events may change")
        }
        try Self.checkTrackingSecrets(secrets)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        let identifier = "trk_" + String((0..<26).map { _ in alphabet[Int.random(in: 0..<32, using: &generator)] })
        let endpoint = TrackingEndpoint(
            identifier: identifier, provider: provider.rawValue, orderTypeIdentifiers: types, secrets: secrets,
            createdAt: configuration.clock())
        try await backend.tracking.add(endpoint)
        return endpoint
    }

    /// Every tracking endpoint, oldest first (their secrets included: never print them).
    public func trackingEndpoints() async throws -> [TrackingEndpoint] {
        try await backend.tracking.endpoints()
    }

    /// Replaces an endpoint's secrets — the new one first and the one being retired, then the
    /// new one alone; returns whether the endpoint exists.
    public func setTrackingSecrets(_ secrets: [String], endpoint identifier: String) async throws -> Bool {
        try await control.checkUsable(.orders, for: "setTrackingSecrets")
        try Self.checkTrackingSecrets(secrets)
        return try await backend.tracking.setSecrets(secrets, of: identifier)
    }

    /// Removes an endpoint and the events it received (the versions they made stay); returns
    /// whether it existed.
    public func removeTrackingEndpoint(_ identifier: String) async throws -> Bool {
        try await control.checkUsable(.orders, for: "removeTrackingEndpoint")
        return try await backend.tracking.remove(endpoint: identifier)
    }

    /// A provider's webhook body, as it arrived at `/api/v1/tracking/{provider}/{endpoint}`: its
    /// signature checked against the endpoint's secrets, then its event recorded and applied to
    /// the orders of the endpoint's types naming its parcel (docs/tracking.md).
    ///
    /// - Parameter checkingSignature: false only for a body the operator saved and applies again
    ///   (`orders tracking replay`): neither its signature nor its age is checked.
    /// - Throws: ``OrderTracking/TrackingError`` (`unsigned`, then `unknownEndpoint`,
    ///   `badSignature`, `stale` before anything of the body is read; `invalidBody`, `bodyTooLarge`); an event of a kind not
    ///   applied is not an error but ``OrderStorage/TrackingOutcome/unsupported``. What authoring
    ///   throws for an order (no signing identity, orders restricted) leaves the event to be
    ///   applied by the next delivery or the sweep.
    public func receiveTrackingWebhook(
        _ body: Data, provider: TrackingProvider, endpoint identifier: String, signature: String?,
        webService: WebServiceURLPolicy, checkingSignature: Bool = true
    ) async throws -> TrackingResult {
        // Restricted, an event is not even recorded: the provider retries later (503).
        try await control.checkUsable(.orders, for: "receiveTrackingWebhook")
        // An unsigned body is refused before anything is looked up: a stranger without a
        // signature learns nothing, not even whether the endpoint exists.
        if checkingSignature, signature == nil, let scheme = TrackingSignature(provider: provider) {
            throw TrackingError.unsigned(header: scheme.header)
        }
        guard provider.signsBodies, let endpoint = try await backend.tracking.endpoint(identifier: identifier),
            endpoint.provider == provider.rawValue
        else { throw TrackingError.unknownEndpoint(identifier) }
        let event: TrackingEvent
        do {
            event =
                checkingSignature
                ? try TrackingWebhook.event(
                    provider, body: body, signature: signature, secrets: endpoint.secrets, now: configuration.clock())
                : try TrackingWebhook.event(provider, body: body)
        } catch .unsupportedEvent {
            return TrackingResult(provider: provider.rawValue, eventID: nil, outcome: .unsupported, versions: [])
        }
        return try await TrackingIngestion(wallet: self, webService: webService).receive(
            event,
            in: .init(endpoint: identifier, orderTypeIdentifiers: Set(endpoint.orderTypeIdentifiers), client: nil))
    }

    /// The latest events received, newest first; only those no order names yet when `unmatched`.
    public func trackingEvents(unmatched: Bool = false, limit: Int = 50) async throws -> [TrackingEventRecord] {
        try await backend.tracking.events(unmatched: unmatched, limit: limit)
    }

    /// The latest events for the parcels `order` names, newest first, whatever they did.
    public func trackingEvents(for order: Order, limit: Int = 50) async throws -> [TrackingEventRecord] {
        try await backend.tracking.events(trackingKeys: order.trackingKeys.map(\.normalized), limit: limit)
    }

    /// The events that made versions of `identifier`, oldest first.
    public func appliedTrackingEvents(of identifier: FullyQualifiedOrderIdentifier) async throws -> [AppliedTrackingEvent] {
        try await backend.tracking.appliedEvents(of: identifier)
    }

    /// Applies the kept events whose parcel an order now names (an order saved after its event
    /// came) and those a stopped service left half done. `orders serve` runs it every
    /// ``OrderTracking/TrackingLimits/sweepInterval``; it only reads when there is nothing to do.
    @discardableResult
    public func applyKeptTrackingEvents(webService: WebServiceURLPolicy, limit: Int = 100) async throws -> [TrackingResult] {
        try control.checkAvailable(.orders, for: "applyKeptTrackingEvents")
        let now = configuration.clock()
        let ingestion = TrackingIngestion(wallet: self, webService: webService)
        var results: [TrackingResult] = []
        var endpoints: [String: TrackingEndpoint?] = [:]
        let kept = try await backend.tracking.eventsToApply(
            leftBefore: now.addingTimeInterval(-TrackingLimits.abandonedAfter.timeInterval), limit: limit)
        for record in kept {
            let scope: TrackingIngestion.Scope
            if let name = TrackingEndpoint.genericClient(of: record.endpoint) {
                // Never the operator's scope for a client's event: a name that is no client is skipped.
                guard let client = ClientIdentifier(rawValue: name) else { continue }
                scope = .init(endpoint: record.endpoint, orderTypeIdentifiers: nil, client: client)
            } else {
                if endpoints[record.endpoint] == nil {
                    endpoints[record.endpoint] = .some(try await backend.tracking.endpoint(identifier: record.endpoint))
                }
                guard let endpoint = endpoints[record.endpoint] ?? nil else { continue }
                scope = .init(endpoint: record.endpoint, orderTypeIdentifiers: Set(endpoint.orderTypeIdentifiers), client: nil)
            }
            do {
                results.append(try await ingestion.apply(record, in: scope))
            } catch {
                // Applying it failed (no signing identity yet, orders restricted): the sweep after
                // next tries again; the others are not held up.
                try await backend.tracking.postpone(endpoint: record.endpoint, eventID: record.eventID, at: now)
                configuration.logger.warning(
                    "a kept tracking event could not be applied yet",
                    metadata: ["endpoint": "\(record.endpoint)", "event": "\(record.eventID)", "error": "\(error)"])
            }
        }
        return results
    }

    /// Forgets unmatched events past ``OrderTracking/TrackingLimits/unmatchedLifetime`` and every
    /// event past ``OrderTracking/TrackingLimits/eventLifetime``; returns how many. `orders serve`
    /// runs it every ``OrderTracking/TrackingLimits/expiryInterval``.
    @discardableResult
    public func expireTrackingEvents() async throws -> Int {
        let now = configuration.clock()
        return try await backend.tracking.expire(
            unmatchedBefore: now.addingTimeInterval(-TrackingLimits.unmatchedLifetime.timeInterval),
            before: now.addingTimeInterval(-TrackingLimits.eventLifetime.timeInterval))
    }

    static func checkTrackingSecrets(_ secrets: [String]) throws(TrackingError) {
        guard (1...TrackingEndpoint.maximumSecrets).contains(secrets.count) else {
            throw .invalidConfiguration(reason: "give one secret, or two while rotating (the new one first)")
        }
        guard secrets.allSatisfy({ !$0.isEmpty && $0.count <= 512 && !$0.contains(where: \.isNewline) && !$0.contains("\0") })
        else { throw .invalidConfiguration(reason: "a secret is one line of 1 to 512 characters") }
    }
}

extension MerchantOrders {
    /// The generic event (docs/tracking.md), posted by this client with a merchant API key:
    /// recorded under the client and applied to the orders of types it is entitled to.
    public func receiveTrackingEvent(_ body: Data, webService: WebServiceURLPolicy) async throws -> TrackingResult {
        try await wallet.control.checkUsable(.orders, for: "receiveTrackingEvent")
        let event = try TrackingWebhook.event(.generic, body: body)
        return try await TrackingIngestion(wallet: wallet, webService: webService).receive(
            event,
            in: .init(endpoint: TrackingEndpoint.generic(client: client.rawValue), orderTypeIdentifiers: nil, client: client))
    }
}

extension Duration {
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
