import Foundation
import OrderPackage
import OrderStorage
import WalletCore
import WalletPrimitives

/// Rotating a signing identity without an outage (docs/authoring.md, "Rotating a key"): the new
/// identity is staged, every service instance reports whether it can sign with it
/// (``reportSigningIdentities(instance:)``, which `orders serve` runs every 30 s), and
/// ``activateSigningIdentity(orderTypeIdentifier:force:liveWithin:)`` makes it the one that signs
/// only once every live instance can — until then the old one signs.
///
/// ```swift
/// _ = try await wallet.addSigningIdentity(orderTypeIdentifier: type, certificate: new, key: newKey)  // staged
/// for status in try await wallet.signingIdentityStatus() { print(status.reports) }
/// try await wallet.activateSigningIdentity(orderTypeIdentifier: type)
/// ```
extension WalletStore {
    /// How long an instance's last report counts as the word of a live instance: three of its
    /// 30-second checks.
    public static let liveReportWindow: TimeInterval = 90

    /// Every staged identity, by order type.
    public func stagedSigningIdentities() async throws -> [StoredSigningIdentity] {
        try await backend.signingIdentities.stagedIdentities()
    }

    /// Loads each active and staged identity as this process would sign with it — an active one
    /// through the signing path (its failure backoff included), a staged one once until it loads —
    /// and records under `instance` whether it could. Reports older than a day are forgotten.
    @discardableResult
    public func reportSigningIdentities(instance: String) async throws -> [SigningIdentityReport] {
        let now = configuration.clock()
        var reports: [SigningIdentityReport] = []
        for row in try await backend.signingIdentities.identities() {
            let failure: (any Error)?
            do {
                _ = try signingIdentity(of: row)
                failure = nil
            } catch {
                failure = error
            }
            reports.append(Self.report(instance: instance, row: row, failure: failure, at: now))
        }
        for row in try await backend.signingIdentities.stagedIdentities() {
            var failure: (any Error)?
            if signingIdentityCache.staged(row) == nil {
                do {
                    signingIdentityCache.keepStaged(try load(row), for: row)
                } catch {
                    failure = error
                }
            }
            reports.append(Self.report(instance: instance, row: row, failure: failure, at: now))
        }
        try await backend.signingIdentities.record(reports, forgetBefore: now.addingTimeInterval(-86_400))
        return reports
    }

    /// Forgets `instance`'s reports: it is stopping, and its word no longer counts.
    public func forgetSigningReports(of instance: String) async throws {
        try await backend.signingIdentities.forgetReports(of: instance)
    }

    /// Each order type's active and staged identity with what each instance last reported of
    /// them.
    public func signingIdentityStatus() async throws -> [SigningIdentityStatus] {
        let active = try await backend.signingIdentities.identities()
        let staged = try await backend.signingIdentities.stagedIdentities()
        let reports = try await backend.signingIdentities.reports()
        let types = Set(active.map(\.orderTypeIdentifier) + staged.map(\.orderTypeIdentifier)).sorted()
        return types.map { type in
            let active = active.first { $0.orderTypeIdentifier == type }
            let staged = staged.first { $0.orderTypeIdentifier == type }
            let revisions = Set([active?.revision, staged?.revision].compactMap { $0 })
            return SigningIdentityStatus(
                orderTypeIdentifier: type, active: active, staged: staged,
                reports: reports.filter { $0.orderTypeIdentifier == type && revisions.contains($0.revision) })
        }
    }

    /// Makes the staged identity of `orderTypeIdentifier` the one that signs — if every live
    /// instance (one that reported anything within `liveWithin` seconds) reported it can load it.
    ///
    /// - Throws: ``OrderPackage/SigningIdentityError/nothingStaged(orderTypeIdentifier:)``;
    ///   ``OrderPackage/SigningIdentityError/notLoadableEverywhere(orderTypeIdentifier:instances:)``
    ///   naming each live instance that cannot, or has not said, unless `force`.
    @discardableResult
    public func activateSigningIdentity(
        orderTypeIdentifier: String, force: Bool = false, liveWithin: TimeInterval = WalletStore.liveReportWindow
    ) async throws -> StoredSigningIdentity {
        guard let staged = try await stagedSigningIdentities().first(where: { $0.orderTypeIdentifier == orderTypeIdentifier })
        else { throw SigningIdentityError.nothingStaged(orderTypeIdentifier: orderTypeIdentifier) }
        if !force {
            let now = configuration.clock()
            let revision = staged.revision
            let reports = try await backend.signingIdentities.reports()
            let live = Set(reports.filter { now.timeIntervalSince($0.reportedAt) <= liveWithin }.map(\.instance))
            var objections: [String] = []
            for instance in live.sorted() {
                let report = reports.first { $0.instance == instance && $0.revision == revision }
                switch report {
                case nil: objections.append("\(instance) has not checked it yet (it does every 30 s)")
                case let report? where !report.loaded: objections.append("\(instance): \(report.reason ?? "cannot load it")")
                default: break
                }
            }
            guard objections.isEmpty else {
                throw SigningIdentityError.notLoadableEverywhere(orderTypeIdentifier: orderTypeIdentifier, instances: objections)
            }
        }
        guard
            let activated = try await backend.signingIdentities.activate(
                orderTypeIdentifier: orderTypeIdentifier, revision: staged.revision)
        else { throw SigningIdentityError.nothingStaged(orderTypeIdentifier: orderTypeIdentifier) }
        return activated
    }

    private static func report(
        instance: String, row: StoredSigningIdentity, failure: (any Error)?, at now: Date
    ) -> SigningIdentityReport {
        let reason = failure.map { error in
            (error as? any WalletError).map { "\($0.code): \($0.message)" } ?? "\(error)"
        }
        return SigningIdentityReport(
            instance: instance, orderTypeIdentifier: row.orderTypeIdentifier, revision: row.revision, loaded: failure == nil,
            reason: reason, reportedAt: now)
    }
}

/// An order type's identities and what the instances reported of them
/// (``WalletStore/signingIdentityStatus()``).
public struct SigningIdentityStatus: Sendable {
    public let orderTypeIdentifier: String
    /// The identity that signs.
    public let active: StoredSigningIdentity?
    /// The one waiting to replace it.
    public let staged: StoredSigningIdentity?
    /// Each instance's last word on either, newest first.
    public let reports: [SigningIdentityReport]
}
