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
        try await OrderAuthoring(wallet: self, webService: webService, client: nil).author(
            identifier, content: content, uploadedBy: nil, basis: basis)
    }
}

extension MerchantOrders {
    /// ``WalletStore/authorOrder(_:content:webService:basis:)`` for this client: only order types it is
    /// entitled to (others: `FinanceAccessError.notEntitled`, nothing signed), the version
    /// recorded as uploaded by `uploadedBy` (a merchant API key).
    public func authorOrder(
        _ identifier: FullyQualifiedOrderIdentifier, content: OrderAuthoringContent,
        webService: WebServiceURLPolicy, uploadedBy: String? = nil
    ) async throws -> AuthoredOrder {
        try await OrderAuthoring(wallet: wallet, webService: webService, client: client).author(
            identifier, content: content, uploadedBy: uploadedBy)
    }

    /// ``authorOrder(_:content:webService:uploadedBy:)`` for a request with an `Idempotency-Key`:
    /// the receipt kept under it is read with everything else authoring reads, and returned
    /// (`.answeredBefore`, nothing authored) when there is one; otherwise the receipt
    /// `idempotency` makes is kept with the version, in its transaction — and a receipt kept under
    /// the key meanwhile makes the save fail with `OrderStoreError.requestAlreadyAnswered`,
    /// nothing saved.
    public func authorOrder(
        _ identifier: FullyQualifiedOrderIdentifier, content: OrderAuthoringContent,
        webService: WebServiceURLPolicy, uploadedBy: String? = nil, idempotency: IdempotentAuthoring?
    ) async throws -> AuthoringOutcome {
        try await OrderAuthoring(wallet: wallet, webService: webService, client: client).author(
            identifier, content: content, uploadedBy: uploadedBy, idempotency: idempotency)
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
