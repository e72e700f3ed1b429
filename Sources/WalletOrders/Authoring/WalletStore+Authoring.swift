import Foundation
import OrderPackage
import OrderStorage
import WalletCore

extension WalletStore {
    /// Authors the next version of an order (its first, for a new one) from JSON, signs it with
    /// the type's signing identity and saves it through saveOrder, as the operator (docs/authoring.md).
    ///
    /// - Parameters:
    ///   - webService: the `webServiceURL` versions get (the service's public URL), and others the
    ///     operator allowed by order type; a version naming any other is refused.
    ///   - basis: the `archiveSHA256` of the version `content` was made against (the console's
    ///     preview): while another version is current, `AuthoringError.versionChanged` and nothing
    ///     saved, rather than the content applied to a version nobody looked at.
    /// - Throws: ``OrderPackage/AuthoringError`` (content, ownership, a `webServiceURL` not allowed,
    ///   a patch of nothing, contention),
    ///   `OrderStoreError.invalidArchive` with every finding at its path before anything is signed,
    ///   `SigningIdentityError.notFound` when no identity signs the type, the errors of saveOrder.
    public func authorOrder(
        _ identifier: FullyQualifiedOrderIdentifier, content: OrderAuthoringContent,
        webService: WebServiceURLPolicy, basis: String? = nil
    ) async throws -> AuthoredOrder {
        let orders = self.orders
        return try await OrderAuthoring(
            wallet: self, webService: webService, readArchive: { try await orders.archive($0) },
            prepare: { orders.prepareOrder(signedArchive: $0) }, save: { try await orders.saveOrderWithDecision($0) }
        ).author(identifier, content: content, uploadedBy: nil, basis: basis)
    }
}

extension MerchantOrders {
    /// ``WalletStore/authorOrder(_:content:webService:basis:)`` for this client: only order types it is
    /// entitled to (others: `FinanceAccessError.notEntitled` before anything is read or signed),
    /// the version recorded as uploaded by `uploadedBy` (a merchant API key).
    ///
    /// - Parameter receipt: for a request with an `Idempotency-Key`: the receipt to keep, made from
    ///   the version about to be saved and written in its transaction (see ``requestReceipt(caller:idempotencyKey:)``).
    ///   A receipt already kept under the key makes the save fail with
    ///   `OrderStoreError.requestAlreadyAnswered`, nothing saved.
    public func authorOrder(
        _ identifier: FullyQualifiedOrderIdentifier, content: OrderAuthoringContent,
        webService: WebServiceURLPolicy, uploadedBy: String? = nil,
        receipt: (@Sendable (AuthoredOrder) throws -> RequestReceipt)? = nil
    ) async throws -> AuthoredOrder {
        // The entitlement is read once, here: the reads and the save below are of this one order
        // (the store still checks availability and restriction on each).
        guard try await mayContain(identifier, for: "authorOrder") else {
            throw FinanceAccessError.notEntitled(client, orderTypeIdentifier: identifier.orderTypeIdentifier)
        }
        let orders = wallet.clientOrders
        return try await OrderAuthoring(
            wallet: wallet, webService: webService, readArchive: { try await orders.archive($0) },
            prepare: { orders.prepareOrder(signedArchive: $0) }, save: { try await orders.saveOrderWithDecision($0) }
        ).author(identifier, content: content, uploadedBy: uploadedBy, receipt: receipt)
    }

    /// The receipt `caller` (a merchant API key's identifier) got for `idempotencyKey` within
    /// ``OrderStorage/RequestReceipt/lifetime``, if any.
    public func requestReceipt(caller: String, idempotencyKey: String) async throws -> RequestReceipt? {
        try wallet.control.checkAvailable(.orders, for: "requestReceipt")
        return try await wallet.backend.orders.receipt(
            caller: caller, idempotencyKey: idempotencyKey,
            notBefore: wallet.configuration.clock().addingTimeInterval(-RequestReceipt.lifetime))
    }
}
