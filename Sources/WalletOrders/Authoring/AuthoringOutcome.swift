import OrderStorage

/// What an authoring request with an `Idempotency-Key` came to: a version authored now, or the
/// answer a request under the same key got before (nothing authored).
public enum AuthoringOutcome: Sendable {
    /// The version saved, with the receipt kept under the key in its transaction (whose answer
    /// is this request's too, byte for byte).
    case authored(AuthoredOrder, receipt: RequestReceipt?)
    /// The receipt kept under the key; the caller replays it if the request is the same
    /// (``OrderStorage/RequestReceipt/requestDigest``).
    case answeredBefore(RequestReceipt)
}

/// An authoring request's `Idempotency-Key`: the receipt looked for in authoring's one read, and
/// how to make the one kept with the version (from the version about to be saved, with no I/O).
public struct IdempotentAuthoring: Sendable {
    public var key: ReceiptKey
    public var receipt: @Sendable (AuthoredOrder) throws -> RequestReceipt

    public init(key: ReceiptKey, receipt: @escaping @Sendable (AuthoredOrder) throws -> RequestReceipt) {
        self.key = key
        self.receipt = receipt
    }
}
