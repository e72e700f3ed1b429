import Foundation

/// The answer a merchant API request got, kept under the caller's `Idempotency-Key` so that a
/// retry gets the same answer without a second version (docs/authoring.md). Written in the
/// transaction that saves the version it answers: there is never one without the other.
public struct RequestReceipt: Sendable, Hashable {
    /// Who asked: the merchant API key's identifier.
    public var caller: String
    public var idempotencyKey: String
    /// SHA-256 (hex) of the method, path and body: a key reused for another request is refused.
    public var requestDigest: String
    /// The HTTP status answered.
    public var status: Int
    /// The answer's body, byte for byte.
    public var answer: Data
    public var createdAt: Date

    /// How long a receipt answers retries: 24 hours. Older ones are removed as the caller makes
    /// new ones, so each caller holds at most a day's requests.
    public static let lifetime: TimeInterval = 86_400

    public init(caller: String, idempotencyKey: String, requestDigest: String, status: Int, answer: Data, createdAt: Date) {
        self.caller = caller
        self.idempotencyKey = idempotencyKey
        self.requestDigest = requestDigest
        self.status = status
        self.answer = answer
        self.createdAt = createdAt
    }
}
