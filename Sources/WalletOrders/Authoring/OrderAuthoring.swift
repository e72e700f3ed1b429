import Foundation
import OrderPackage
import OrderStorage
import WalletPrimitives

/// The one procedure every way of authoring goes through (the merchant API, `orders author`, the
/// console): read the current version, apply the merchant's content and the fields the service
/// owns (``OrderPackage/AuthoredOrderContent``), check it as uploads are checked, sign it with the
/// type's identity, verify the signed archive whole and save it through saveOrder — whose one
/// transaction also queues the pushes to registered devices.
///
/// Writers of one order take turns in this process (``OrderWriterTurns``). Between the read and the
/// save a writer elsewhere may still store a newer version (another instance, an upload): the save
/// then keeps the newer one, and the procedure starts again from it, so a patch applies to what is
/// current and `updatedAt` stays strictly increasing.
struct OrderAuthoring: Sendable {
    /// How often a save that lost to a newer version is tried again from that version.
    static let attempts = 4

    let wallet: WalletStore
    let webService: WebServiceURLPolicy
    let readArchive: @Sendable (FullyQualifiedOrderIdentifier) async throws -> Data?
    let prepare: @Sendable (Data) -> OrderPreparation
    let save: @Sendable (PreparedOrder) async throws -> (result: SaveOrderResult, decision: OrderVersionPolicy.Decision?)

    /// - Parameters:
    ///   - receipt: the receipt to keep with the version (its answer made from the version about
    ///     to be saved), written in the save's transaction.
    ///   - basis: the `archiveSHA256` of the version `content` was made against; while another is
    ///     current, ``OrderPackage/AuthoringError/versionChanged(basis:)`` instead of a retry from it.
    func author(
        _ identifier: FullyQualifiedOrderIdentifier, content: OrderAuthoringContent, uploadedBy: String?,
        receipt: (@Sendable (AuthoredOrder) throws -> RequestReceipt)? = nil, basis: String? = nil
    ) async throws -> AuthoredOrder {
        let incoming = try Self.parse(content)
        let identity = try await wallet.signingIdentity(for: identifier.orderTypeIdentifier)
        return try await wallet.orderWriters.withTurn(identifier) {
            try await author(identifier, incoming, identity: identity, uploadedBy: uploadedBy, receipt: receipt, basis: basis)
        }
    }

    /// The read, compose, sign and save, retried from a newer version another writer saved.
    private func author(
        _ identifier: FullyQualifiedOrderIdentifier, _ incoming: Incoming, identity: SigningIdentity, uploadedBy: String?,
        receipt: (@Sendable (AuthoredOrder) throws -> RequestReceipt)?, basis: String?
    ) async throws -> AuthoredOrder {
        let verifier = wallet.configuration.verifier
        for _ in 1...Self.attempts {
            let stored = try await readArchive(identifier)
            if let basis, stored.map(SHA256Digest.hex(of:)) != basis { throw AuthoringError.versionChanged(basis: basis) }
            let current = try stored.map(Self.currentVersion)
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
            }
            let composed = try AuthoredOrderContent(
                document, orderTypeIdentifier: identifier.orderTypeIdentifier, orderIdentifier: identifier.orderIdentifier,
                stored: current.map { ($0.document, $0.updatedAt) }, now: wallet.configuration.clock(), webService: webService)
            files[OrderValidator.fileName] = composed.orderJSON
            let checked = verifier.checkUnsigned(files: files)
            guard checked.isValid else { throw OrderStoreError.invalidArchive(checked) }

            // Stored, not deflated: the images are compressed already and order.json is small, while
            // libzip's deflate state (256 KiB per entry) cost a fifth of an authored version's time.
            let builder = OrderPackageBuilder(signer: identity.signer, compression: .stored, clock: wallet.configuration.clock)
            let archive = try builder.build(files: files)
            var prepared: PreparedOrder
            switch prepare(archive) {
            case .valid(let order): prepared = order
            case .invalid(let report): throw OrderStoreError.invalidArchive(report)
            }
            if let uploadedBy { prepared = prepared.uploaded(by: uploadedBy) }
            // Composition guarantees both; a non-string one was refused by the check above.
            guard let webServiceURL = composed.webServiceURL, let token = composed.authenticationToken else {
                throw AuthoringError.publicURLRequired(orderTypeIdentifier: identifier.orderTypeIdentifier)
            }
            // What the answer says is decided before the save, so that a receipt can hold it.
            var authored = AuthoredOrder(
                identifier: identifier, updatedAt: composed.updatedAt, archive: archive,
                archiveSHA256: prepared.report.archiveSHA256, result: .added, isFirstVersion: current == nil,
                orderDetails: OrderDetails(
                    orderTypeIdentifier: identifier.orderTypeIdentifier, orderIdentifier: identifier.orderIdentifier,
                    webServiceURL: webServiceURL, authenticationToken: token),
                report: prepared.report)
            if let receipt { prepared = prepared.answered(with: try receipt(authored)) }
            let result: SaveOrderResult
            let decision: OrderVersionPolicy.Decision?
            do {
                (result, decision) = try await save(prepared)
            } catch OrderStoreError.conflictingVersion {
                continue  // another writer stored the same updatedAt first: again, from its version
            }
            if case .keepNewer? = decision { continue }  // a newer version arrived: again, from it
            authored.result = result
            return authored
        }
        throw AuthoringError.contended(attempts: Self.attempts)
    }

    private enum Incoming {
        case replace(JSONValue, resources: [String: Data]?)
        case mergePatch(JSONValue)
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
