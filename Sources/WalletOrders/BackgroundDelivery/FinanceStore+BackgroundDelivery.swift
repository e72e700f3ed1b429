import Foundation

/// FinanceKit's background delivery for a client on the network: instead of an app extension
/// the system launches, an HTTPS endpoint the client registers is sent a signed `POST` naming
/// the data types whose client-visible data changed — at most once per the frequency's
/// interval, never when nothing changed; the client then catches up with its history tokens.
/// `orders serve` decides and sends; docs/background-delivery.md has the wire format.
///
/// What a server adds to FinanceKit's calls: the endpoint's URL, and errors where a device has
/// none to report (a URL refused, a store that cannot be written). Delivery failures surface in
/// ``backgroundDeliveryEndpoints()``, as FinanceKit's calls report nothing either.
///
/// ```swift
/// let store = wallet.financeStore(for: "com.example.budget")
/// let enabled = try await store.enableBackgroundDelivery(
///     for: [.transactions], frequency: .hourly, url: "https://budget.example/wallet-deliveries")
/// keep(enabled.secret)   // shown once: it signs every delivery
/// ```
extension FinanceStore {
    public typealias BackgroundDataType = FinanceData.BackgroundDataType
    public typealias UpdateFrequency = FinanceData.UpdateFrequency

    /// Delivers changes of `types` to `url` at most once per `frequency` (FinanceKit's
    /// `enableBackgroundDelivery(for:frequency:)`). Calling it again for a type changes its
    /// frequency; for another URL it adds an endpoint (``BackgroundDeliveryPolicy`` bounds how
    /// many). A new endpoint's signing secret is in the result, once.
    ///
    /// - Throws: `notAuthorized` unless the client is authorized; `dataTypeUnavailable` where the
    ///   deployment provides no financial data; ``FinanceData/BackgroundDeliveryError`` for a URL
    ///   refused, no types, or too many endpoints. A restriction of financial data does not
    ///   refuse: deliveries wait until it is lifted.
    public func enableBackgroundDelivery(
        for types: Set<BackgroundDataType>, frequency: UpdateFrequency, url: String
    ) async throws -> EnabledDelivery {
        try wallet.control.checkAvailable(.financialData, for: "enableBackgroundDelivery")
        guard !types.isEmpty else { throw BackgroundDeliveryError.noDataTypes }
        let target = try WebhookURL(url)
        _ = try await wallet.control.requireAuthorized(client)
        let policy = wallet.configuration.backgroundDelivery
        try await policy.targets.check(target)
        let enabled = try await wallet.backend.backgroundDelivery.enable(
            types, frequency: frequency, url: target, for: client, secret: SecretToken.generate(.deliverySecret).value,
            maximumEndpoints: policy.maximumEndpointsPerClient, at: wallet.configuration.clock())
        wallet.configuration.logger.info(
            "background delivery enabled",
            metadata: [
                "client": .string(client.rawValue), "endpoint": .string(enabled.endpoint.id.uuidString),
                "host": .string(target.host), "types": .string(types.sorted().map(\.rawValue).joined(separator: ",")),
                "frequency": .string(frequency.rawValue),
            ])
        return enabled
    }

    /// Stops delivering `types` (FinanceKit's `disableBackgroundDelivery(for:)`) on every
    /// endpoint; an endpoint left with no type is removed, with what it was still owed.
    public func disableBackgroundDelivery(for types: Set<BackgroundDataType>) async throws {
        try wallet.control.checkAvailable(.financialData, for: "disableBackgroundDelivery")
        try await wallet.backend.backgroundDelivery.disable(types, for: client)
    }

    /// Removes every endpoint (FinanceKit's `disableAllBackgroundDelivery()`).
    public func disableAllBackgroundDelivery() async throws {
        try wallet.control.checkAvailable(.financialData, for: "disableAllBackgroundDelivery")
        try await wallet.backend.backgroundDelivery.disableAll(for: client)
    }

    /// The client's endpoints: types and frequencies, the last delivery and the last failure,
    /// whether one is disabled (`410 Gone`), deliveries pending.
    public func backgroundDeliveryEndpoints() async throws -> [DeliveryEndpoint] {
        try wallet.control.checkAvailable(.financialData, for: "backgroundDeliveryEndpoints")
        return try await wallet.backend.backgroundDelivery.endpoints(for: client)
    }
}

extension WalletStore {
    /// Every client's background-delivery endpoints, oldest first (for operators).
    public func deliveryEndpoints() async throws -> [DeliveryEndpoint] {
        try await backend.backgroundDelivery.endpoints(for: nil)
    }

    /// One endpoint by id (for operators).
    ///
    /// - Throws: ``FinanceData/BackgroundDeliveryError/unknownEndpoint(_:)``.
    public func deliveryEndpoint(_ id: UUID) async throws -> DeliveryEndpoint {
        guard let endpoint = try await backend.backgroundDelivery.endpoint(id) else {
            throw BackgroundDeliveryError.unknownEndpoint(id.uuidString)
        }
        return endpoint
    }
}
