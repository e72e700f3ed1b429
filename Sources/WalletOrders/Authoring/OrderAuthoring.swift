import Foundation
import OrderPackage
import OrderStorage
import WalletCore
import WalletPrimitives

/// The one procedure every way of authoring goes through (the merchant API, `orders author`, the
/// console), as one unit of work (docs/design.md, "A PATCH, traced"):
///
/// 1. **Read once**: the restriction, the client's entitlement, the current version, the receipt
///    under the request's `Idempotency-Key` and the type's signing identity, in one storage call
///    (``OrderStorage/AuthoringBasis``).
/// 2. **Compose, sign and check with no I/O**: the merchant's content and the fields the service
///    owns (``OrderPackage/AuthoredOrderContent``), checked as uploads are before anything is
///    signed; signed with the type's identity; the signed package checked from its entries in
///    memory — manifest digests, signature, chain and signer policy — not zipped and read back.
/// 3. **Save** in one unit of work with the receipt and the pushes to registered devices, only
///    while the version read is still current (a compare on its digest, ``OrderStorage/VersionBasis``).
///
/// Writers of one order take turns in this process (``OrderWriterTurns``). A writer elsewhere may
/// still store a version between the read and the save (another instance, an upload): the save
/// then writes nothing and the procedure starts again from that version, so a patch applies to
/// what is current and `updatedAt` stays strictly increasing.
struct OrderAuthoring: Sendable {
    /// How often a save that lost to a newer version is tried again from that version.
    static let attempts = 4

    let wallet: WalletStore
    let webService: WebServiceURLPolicy
    /// The merchant API client whose entitlement decides; nil: the operator (`orders author`, the console).
    let client: ClientIdentifier?

    /// - Parameters:
    ///   - idempotency: the request's key, and the receipt to keep with the version (its answer
    ///     made from the version about to be saved), written in the save's transaction.
    ///   - basis: the `archiveSHA256` of the version `content` was made against; while another is
    ///     current, ``OrderPackage/AuthoringError/versionChanged(basis:)`` instead of a retry from it.
    func author(
        _ identifier: FullyQualifiedOrderIdentifier, content: OrderAuthoringContent, uploadedBy: String?,
        basis: String? = nil
    ) async throws -> AuthoredOrder {
        // Without a key no receipt is looked for, so none is found.
        guard
            case .authored(let authored, _) = try await author(
                identifier, content: content, uploadedBy: uploadedBy, idempotency: nil, basis: basis)
        else { preconditionFailure("a receipt found without an Idempotency-Key") }
        return authored
    }

    func author(
        _ identifier: FullyQualifiedOrderIdentifier, content: OrderAuthoringContent, uploadedBy: String?,
        idempotency: IdempotentAuthoring?, basis: String? = nil
    ) async throws -> AuthoringOutcome {
        try wallet.control.checkAvailable(.orders, for: "authorOrder")
        let incoming = try Self.parse(content)
        guard
            let outcome = try await author(
                identifier, incoming, uploadedBy: uploadedBy, idempotency: idempotency, basis: basis, event: nil)
        else { preconditionFailure("content that is not derived always makes a version") }
        return outcome
    }

    /// The next version made by `derive` from the current one's order.json — a merge patch, or
    /// nil when there is nothing to change (then nothing is signed or saved, and nil returned) —
    /// kept with the tracking event `event` that made it (docs/tracking.md). `derive` runs again
    /// when another version became current before the save.
    func author(
        _ identifier: FullyQualifiedOrderIdentifier, applying event: AppliedTrackingEvent,
        deriving derive: @escaping @Sendable (JSONValue) async throws -> JSONValue?
    ) async throws -> AuthoredOrder? {
        try wallet.control.checkAvailable(.orders, for: "authorOrder")
        guard
            case .authored(let authored, _)? = try await author(
                identifier, .derived(derive), uploadedBy: nil, idempotency: nil, basis: nil, event: event)
        else { return nil }
        return authored
    }

    private func author(
        _ identifier: FullyQualifiedOrderIdentifier, _ incoming: Incoming, uploadedBy: String?,
        idempotency: IdempotentAuthoring?, basis: String?, event: AppliedTrackingEvent?
    ) async throws -> AuthoringOutcome? {
        try await wallet.orderWriters.withTurn(identifier) {
            for _ in 1...Self.attempts {
                let read = try await wallet.backend.authoringBasis(
                    of: identifier, client: client, receipt: idempotency?.key, now: wallet.configuration.clock())
                switch try await author(
                    identifier, incoming, from: read, uploadedBy: uploadedBy, idempotency: idempotency, basis: basis,
                    event: event)
                {
                case .done(let outcome): return outcome
                case .nothingToChange: return nil
                case .again: continue
                }
            }
            throw AuthoringError.contended(attempts: Self.attempts)
        }
    }

    private enum Attempt {
        case done(AuthoringOutcome)
        /// Derived content that changes nothing.
        case nothingToChange
        /// The version read is no longer current at the save: again, from the newer one.
        case again
    }

    /// Compose, sign, check and save from what was read.
    private func author(
        _ identifier: FullyQualifiedOrderIdentifier, _ incoming: Incoming, from read: AuthoringBasis, uploadedBy: String?,
        idempotency: IdempotentAuthoring?, basis: String?, event: AppliedTrackingEvent?
    ) async throws -> Attempt {
        if let client {
            try wallet.control.checkNotRestricted(.orders, restrictedSince: read.access.restrictedSince)
            guard read.access.isEntitled else {
                throw FinanceAccessError.notEntitled(client, orderTypeIdentifier: identifier.orderTypeIdentifier)
            }
        } else if read.access.restrictedSince != nil {
            throw OrderStoreError.dataRestricted
        }
        if let receipt = read.receipt { return .done(.answeredBefore(receipt)) }
        guard let row = read.identity else {
            throw SigningIdentityError.notFound(orderTypeIdentifier: identifier.orderTypeIdentifier)
        }
        let identity = try wallet.signingIdentity(of: row)
        if let basis, read.current?.order.archiveSHA256 != basis { throw AuthoringError.versionChanged(basis: basis) }
        let current = try read.current.map { try Self.currentVersion($0.archive) }
        let document: JSONValue
        var files: [String: Data]
        switch incoming {
        case .replace(let value, let resources):
            document = value
            files = resources ?? current?.files ?? [:]
        case .mergePatch(let patch):
            guard let current else {
                throw AuthoringError.orderNotFound(
                    orderTypeIdentifier: identifier.orderTypeIdentifier, orderIdentifier: identifier.orderIdentifier)
            }
            document = JSONMergePatch.apply(patch, to: current.document)
            files = current.files
        case .derived(let derive):
            guard let current else {
                throw AuthoringError.orderNotFound(
                    orderTypeIdentifier: identifier.orderTypeIdentifier, orderIdentifier: identifier.orderIdentifier)
            }
            guard let patch = try await derive(current.document) else { return .nothingToChange }
            document = JSONMergePatch.apply(patch, to: current.document)
            files = current.files
        }
        let configuration = wallet.configuration
        let composed = try AuthoredOrderContent(
            document, orderTypeIdentifier: identifier.orderTypeIdentifier, orderIdentifier: identifier.orderIdentifier,
            stored: current.map { ($0.document, $0.updatedAt) }, now: configuration.clock(), webService: webService)
        files[OrderValidator.fileName] = composed.orderJSON
        let checked = configuration.verifier.checkUnsigned(files: files)
        guard checked.isValid else { throw OrderStoreError.invalidArchive(checked) }
        // Composition guarantees both; a non-string one was refused by the check above.
        guard let webServiceURL = composed.webServiceURL, let token = composed.authenticationToken else {
            throw AuthoringError.publicURLRequired(orderTypeIdentifier: identifier.orderTypeIdentifier)
        }

        // Stored, not deflated: the images are compressed already and order.json is small, while
        // libzip's deflate state (256 KiB per entry) cost a fifth of an authored version's time.
        let builder = OrderPackageBuilder(signer: identity.signer, compression: .stored, clock: configuration.clock)
        var package = try builder.package(files: files)
        if let fault = configuration.authoringFault { package = try await fault(package) }
        let report = configuration.verifier.verify(package: package)
        guard var prepared = PreparedOrder(archive: package.archive, report: report)?.madeFrom(read.versionBasis) else {
            throw OrderStoreError.invalidArchive(report)
        }
        if let uploadedBy { prepared = prepared.uploaded(by: uploadedBy) }
        if let event { prepared = prepared.applying(event) }
        // What the answer says is decided before the save, so that a receipt can hold it.
        var authored = AuthoredOrder(
            identifier: identifier, updatedAt: composed.updatedAt, archive: package.archive,
            archiveSHA256: report.archiveSHA256, result: .added, isFirstVersion: current == nil,
            orderDetails: OrderDetails(
                orderTypeIdentifier: identifier.orderTypeIdentifier, orderIdentifier: identifier.orderIdentifier,
                webServiceURL: webServiceURL, authenticationToken: token),
            report: report)
        let receipt = try idempotency.map { try $0.receipt(authored) }
        if let receipt { prepared = prepared.answered(with: receipt) }
        let result: SaveOrderResult
        let decision: OrderVersionPolicy.Decision?
        do {
            (result, decision) = try await wallet.clientOrders.saveOrderWithDecision(prepared, madeFrom: read.current?.order)
        } catch OrderStoreError.conflictingVersion {
            return .again  // another writer stored the same updatedAt first: again, from its version
        }
        switch decision {
        case .keepNewer?, .basisChanged?: return .again  // another version is current: again, from it
        default: break
        }
        authored.result = result
        return .done(.authored(authored, receipt: receipt))
    }

    private enum Incoming {
        case replace(JSONValue, resources: [String: Data]?)
        case mergePatch(JSONValue)
        case derived(@Sendable (JSONValue) async throws -> JSONValue?)
    }

    /// The content parsed before anything is read or signed.
    private static func parse(_ content: OrderAuthoringContent) throws(AuthoringError) -> Incoming {
        func json(_ data: Data, what: String) throws(AuthoringError) -> JSONValue {
            let value: JSONValue
            do {
                value = try JSONParser().parse(data).value
            } catch {
                throw .invalidContent(reason: "\(what) is not JSON: \(error.description)")
            }
            guard case .object = value else { throw .invalidContent(reason: "\(what) must be an object, not \(value.typeName)") }
            return value
        }
        switch content {
        case .replace(let orderJSON, let resources):
            if let name = resources?.keys.sorted().first(where: OrderAuthoringContent.isWrittenByTheService) {
                throw .reservedFileName(name)
            }
            return .replace(
                try json(orderJSON, what: "order.json"), resources: resources?.filter { $0.key != OrderValidator.fileName })
        case .mergePatch(let patch):
            return .mergePatch(try json(patch, what: "the merge patch"))
        }
    }

    /// The current version's order.json, `updatedAt` and other files.
    private static func currentVersion(
        _ archive: Data
    ) throws -> (document: JSONValue, updatedAt: RFC3339Timestamp, files: [String: Data]) {
        let zip = try ZipArchive(reading: archive)
        var files: [String: Data] = [:]
        for entry in zip.entries where ![Manifest.fileName, Manifest.signatureFileName].contains(entry.name) {
            files[entry.name] = entry.contents
        }
        guard let orderJSON = files[OrderValidator.fileName],
            case .object(let object) = try JSONParser().parse(orderJSON).value,
            case .string(let text)? = object["updatedAt"], let updatedAt = RFC3339Timestamp(text)
        else { throw StorageError(reason: "the stored version's order.json cannot be read") }
        return (.object(object), updatedAt, files)
    }
}
