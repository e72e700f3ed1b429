import Foundation
import Testing
import WalletConsent

@Suite("The owner's password: bcrypt, whole passwords only, the same work for every refusal")
struct OwnerPasswordTests {
    @Test("a hash verifies its password and nothing else")
    func verifies() async throws {
        let hash = try await OwnerPassword.hash("correct horse battery", cost: 4)
        #expect(hash.hasPrefix("$2"))
        #expect(await OwnerPassword.verify("correct horse battery", hash: hash))
        #expect(!(await OwnerPassword.verify("correct horse batterY", hash: hash)))
        #expect(!(await OwnerPassword.verify("", hash: hash)))
    }

    @Test("without a stored hash nothing verifies, not even the placeholder's own text")
    func noHash() async {
        #expect(!(await OwnerPassword.verify("placeholder-password", hash: nil)))
        #expect(!(await OwnerPassword.verify("correct horse battery", hash: nil)))
    }

    @Test("past 72 bytes (bcrypt would ignore the rest), under 10, or with control characters: refused")
    func rules() async throws {
        for password in ["short", String(repeating: "a", count: 73), "correct horse\u{0}battery", "correct\nhorse battery"] {
            await #expect(throws: ConsentError.self) { try await OwnerPassword.hash(password, cost: 4) }
        }
        let seventyTwo = String(repeating: "a", count: 72)
        let hash = try await OwnerPassword.hash(seventyTwo, cost: 4)
        // A longer text with the same first 72 bytes is not the password.
        #expect(!(await OwnerPassword.verify(seventyTwo + "b", hash: hash)))
        #expect(await OwnerPassword.verify(seventyTwo, hash: hash))
        await #expect(throws: ConsentError.self) { try await OwnerPassword.hash("correct horse battery", cost: 3) }
    }
}

@Suite("Sessions end when idle, and after their lifetime whatever happens")
struct SessionPolicyTests {
    @Test("idle timeout and absolute lifetime")
    func expiry() {
        let policy = SessionPolicy(idleTimeout: 60, absoluteLifetime: 3_600)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var session = OwnerSession(digest: "d", formToken: "t", createdAt: start, lastSeenAt: start)
        #expect(!policy.isExpired(session, at: start.addingTimeInterval(59)))
        #expect(policy.isExpired(session, at: start.addingTimeInterval(60)))
        session.lastSeenAt = start.addingTimeInterval(3_590)
        #expect(!policy.isExpired(session, at: start.addingTimeInterval(3_599)))
        #expect(policy.isExpired(session, at: start.addingTimeInterval(3_600)))
        #expect(policy.touchInterval <= 30)
    }
}
