import Foundation
import OrderStorage
import WalletCore
import WalletPrimitives

/// Apple's Orders web service — what Wallet devices ask of the `webServiceURL` in order.json —
/// independent of any HTTP framework: `OrdersService` maps these calls to routes and statuses,
/// and a backend on another framework can do the same.
///
/// ```swift
/// let service = wallet.webService
/// let order = try await service.order(id, authenticationToken: token)   // throws .unauthorized
/// let changes = try await service.changedOrders(deviceIdentifier: device, orderTypeIdentifier: type, since: tag)
/// ```
///
/// Every call checks that orders are available and not restricted. Requests for one order are
/// authenticated with that order's `authenticationToken`, compared in constant time; a missing
/// or wrong token and an order that is not stored are refused alike (``WebServiceError/unauthorized``).
public struct OrderWebService: Sendable {
    let backend: any StorageBackend
    let control: AccessControl
    let registrationLimits: RegistrationLimits
    let clock: @Sendable () -> Date

    init(
        backend: any StorageBackend, control: AccessControl, registrationLimits: RegistrationLimits,
        clock: @escaping @Sendable () -> Date
    ) {
        self.backend = backend
        self.control = control
        self.registrationLimits = registrationLimits
        self.clock = clock
    }

    /// The device's registered orders of one type changed after `tag` (all when nil), or nil when
    /// there are none — also for a device that never registered (Apple's `204`).
    ///
    /// - Throws: ``WebServiceError/invalidDeviceIdentifier`` for an identifier no device has.
    public func changedOrders(
        deviceIdentifier: String, orderTypeIdentifier: String, since tag: OrderChangeTag?
    ) async throws -> RegisteredOrderChanges? {
        try Self.checkDeviceIdentifier(deviceIdentifier)
        try await control.checkUsable(.orders, for: "changedOrders")
        return try await backend.registrations.registeredOrders(
            deviceIdentifier: deviceIdentifier, orderTypeIdentifier: orderTypeIdentifier, changedAfter: tag)
    }

    /// The order's current version as served to a device holding its token; without the
    /// archive when `includingArchive` is false (to answer `304`, or from a cache keyed by the
    /// archive's digest).
    ///
    /// - Throws: ``WebServiceError/unauthorized`` for a missing or wrong token, an order that is
    ///   not stored, or one without an `authenticationToken`.
    public func order(
        _ identifier: FullyQualifiedOrderIdentifier, authenticationToken: String?, includingArchive: Bool = true
    ) async throws -> ServedOrder {
        try await authenticated(
            identifier, authenticationToken: authenticationToken, includingArchive: includingArchive, for: "order")
    }

    /// The order's current version for its customer page: the link must be signed with the stored
    /// version's `authenticationToken` and not expired (``OrderPageLink``).
    ///
    /// - Throws: ``WebServiceError/unauthorized`` for a wrong, tampered or expired link, an order
    ///   that is not stored, or one without a token — one answer, the same work, for all of them.
    public func orderPage(_ link: OrderPageLink, includingArchive: Bool = true) async throws -> ServedOrder {
        try control.checkAvailable(.orders, for: "orderPage")
        let lookup = try await backend.orders.lookUpServedOrder(link.identifier, includingArchive: includingArchive)
        try control.checkNotRestricted(.orders, restrictedSince: lookup.restrictedSince)
        let served = lookup.candidate
        let valid = link.isValid(authenticationToken: served.authenticationToken ?? Self.placeholderToken, at: clock())
        guard lookup.isStored, served.authenticationToken != nil, valid else { throw WebServiceError.unauthorized }
        return served
    }

    /// Registers the device for the order's updates (`.created`), or replaces the push token of
    /// its registration (`.updated`).
    ///
    /// - Throws: ``WebServiceError/invalidDeviceIdentifier`` and ``WebServiceError/invalidPushToken``
    ///   before anything is read; ``WebServiceError/unauthorized`` as for ``order(_:authenticationToken:includingArchive:)``;
    ///   `OrderStoreError.registrationLimit` when a new registration would pass
    ///   ``WalletConfiguration/registrationLimits``.
    public func register(
        deviceIdentifier: String, pushToken: String, for identifier: FullyQualifiedOrderIdentifier,
        authenticationToken: String?
    ) async throws -> RegistrationResult {
        try Self.checkDeviceIdentifier(deviceIdentifier)
        guard OrderRegistration.isValidPushToken(pushToken) else { throw WebServiceError.invalidPushToken }
        _ = try await authenticated(identifier, authenticationToken: authenticationToken, for: "register")
        return try await backend.registrations.register(
            OrderRegistration(deviceIdentifier: deviceIdentifier, pushToken: pushToken, order: identifier), at: clock(),
            limits: registrationLimits)
    }

    /// Ends the device's registration for the order; succeeds whether or not there was one.
    public func unregister(
        deviceIdentifier: String, for identifier: FullyQualifiedOrderIdentifier, authenticationToken: String?
    ) async throws {
        try Self.checkDeviceIdentifier(deviceIdentifier)
        _ = try await authenticated(identifier, authenticationToken: authenticationToken, for: "unregister")
        _ = try await backend.registrations.unregister(deviceIdentifier: deviceIdentifier, order: identifier)
    }

    /// No order's token: U+0000 cannot be stored in one.
    private static let placeholderToken = "\u{0}" + String(repeating: "0", count: 31)

    private static func checkDeviceIdentifier(_ identifier: String) throws(WebServiceError) {
        guard OrderRegistration.isValidDeviceIdentifier(identifier) else { throw .invalidDeviceIdentifier }
    }

    /// Checks availability and restriction, then the token; the restriction and the order are
    /// one read.
    private func authenticated(
        _ identifier: FullyQualifiedOrderIdentifier, authenticationToken: String?, includingArchive: Bool = false,
        for operation: String
    ) async throws -> ServedOrder {
        try control.checkAvailable(.orders, for: operation)
        let lookup = try await backend.orders.lookUpServedOrder(identifier, includingArchive: includingArchive)
        try control.checkNotRestricted(.orders, restrictedSince: lookup.restrictedSince)
        // The candidate is placeholders of a stored version's shape when the order is unknown,
        // so both refusals do the same work (TimingEqualityTests).
        let served = lookup.candidate
        let expected = served.authenticationToken
        let matches = ConstantTime.equals(
            Array((authenticationToken ?? "").utf8), Array((expected ?? Self.placeholderToken).utf8))
        guard lookup.isStored, expected != nil, authenticationToken != nil, matches else {
            throw WebServiceError.unauthorized
        }
        return served
    }
}

extension WalletStore {
    /// Apple's Orders web service over this store.
    public var webService: OrderWebService {
        OrderWebService(
            backend: backend, control: control, registrationLimits: configuration.registrationLimits,
            clock: configuration.clock)
    }
}
