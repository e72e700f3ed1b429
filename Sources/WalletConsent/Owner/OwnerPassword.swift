import Foundation
import HummingbirdBcrypt

/// The data owner's password: bcrypt (hummingbird-auth's `HummingbirdBcrypt`), never stored or
/// logged as given.
///
/// Rules: 10–72 bytes of UTF-8 without control characters. bcrypt reads at most 72 bytes and
/// stops at a NUL, so a longer password would be accepted by any text with the same first 72
/// bytes; refusing it keeps "the password" meaning the whole password. The cost is bcrypt's log2
/// of rounds: 12 by default (about a quarter of a second per check on the 2-core machine in
/// Benchmarks/README.md), 4–31 accepted — below 10 only for tests.
public enum OwnerPassword {
    public static let defaultCost = 12
    public static let costs: ClosedRange<Int> = 4...31
    public static let lengths: ClosedRange<Int> = 10...72

    /// Throws ``ConsentError/unacceptablePassword(_:)`` naming the rule broken.
    public static func check(_ password: String) throws(ConsentError) {
        guard lengths.contains(password.utf8.count) else {
            throw .unacceptablePassword("it must be 10–72 bytes long (it is \(password.utf8.count))")
        }
        guard !password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .unacceptablePassword("it must not contain control characters")
        }
    }

    /// The bcrypt hash of an acceptable password, computed off the caller's thread.
    public static func hash(_ password: String, cost: Int = defaultCost) async throws(ConsentError) -> String {
        try check(password)
        guard costs.contains(cost) else { throw .unacceptablePassword("the bcrypt cost must be 4–31, not \(cost)") }
        return await offThread { Bcrypt.hash(password, cost: UInt8(cost)) }
    }

    /// Whether `password` is the one `hash` was made from. The same work whatever the answer:
    /// without a stored hash, or for a password that cannot be one, a placeholder is checked
    /// against a hash of the same cost, so the time taken says nothing about why it failed.
    public static func verify(_ password: String, hash: String?) async -> Bool {
        let acceptable = (try? check(password)) != nil
        let presented = acceptable ? password : "placeholder-password"
        // The placeholder is made on first use, a bcrypt at the default cost: off the caller's thread too.
        let matches = await offThread { Bcrypt.verify(presented, hash: hash ?? placeholderHash) }
        return matches && acceptable && hash != nil
    }

    /// A hash of a random password at the default cost, made once.
    private static let placeholderHash: String = {
        let random = (0..<16).map { _ in String(UInt8.random(in: .min ... .max), radix: 16) }.joined()
        return Bcrypt.hash(random, cost: UInt8(defaultCost))
    }()

    /// bcrypt on a thread of its own: a quarter of a second of CPU must not hold one of Swift
    /// concurrency's threads, nor one of Dispatch's global queues, which on Linux share that pool's
    /// limit of one thread per core (a blocked one is replaced only about once a second). The
    /// owner's sign-in bounds how many of these threads exist at once (`PasswordCheckGate`).
    private static func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}
