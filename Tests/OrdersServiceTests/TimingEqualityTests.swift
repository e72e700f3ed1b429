import Foundation
import OrderStorage
import TestArchiveTable
import Testing
import WalletConsent
import WalletOrders

/// A refusal must take as long whether the thing asked about exists or not, or timing tells a
/// stranger which orders and keys exist. Each test times two kinds of refused request,
/// interleaved (A B, B A, A B… so that drift in the machine's speed falls on both alike), many
/// times, and bounds the median of the paired differences.
///
/// The bound: the median of n paired differences has a standard error of about 1.25 σ/√n. Here
/// σ (the spread of one difference, mostly scheduler and allocator noise) is a few microseconds,
/// so with n = 3,000 the error is about 0.1 µs; 1.5 µs is then far outside noise, and well inside
/// what a path that skips work costs (decoding and parsing a stored row, hashing a secret: 3 to
/// 20 µs in a debug build, as the issue measured against the released binary). The figures are
/// printed; the A/A difference of one kind against itself shows the noise floor in the same run.
@Suite("refusals take as long whether the order or key exists", .serialized)
struct TimingEqualityTests {
    static let samples = 3000
    /// Sanitizers (Scripts/sanitize.sh sets ORDERS_SANITIZER) slow every path 5–15×, the
    /// difference with them.
    static let bound = Duration.nanoseconds(1500) * (ProcessInfo.processInfo.environment["ORDERS_SANITIZER"] == nil ? 1 : 15)

    /// The median of the paired differences `first − second`, of an A/A control, and of one
    /// `second` alone.
    static func medianDifference(
        _ first: () async throws -> Void, _ second: () async throws -> Void
    ) async throws -> (difference: Duration, control: Duration, typical: Duration) {
        let clock = ContinuousClock()
        func time(_ body: () async throws -> Void) async throws -> Duration {
            let start = clock.now
            try await body()
            return clock.now - start
        }
        for _ in 0..<500 {
            try await first()
            try await second()
        }
        var differences: [Duration] = []
        var controls: [Duration] = []
        var typical: [Duration] = []
        for index in 0..<samples {
            let (a, b, c): (Duration, Duration, Duration)
            if index % 2 == 0 {
                a = try await time(first)
                b = try await time(second)
                c = try await time(second)
            } else {
                c = try await time(second)
                b = try await time(second)
                a = try await time(first)
            }
            differences.append(a - b)
            controls.append(c - b)
            typical.append(b)
        }
        return (median(differences), median(controls), median(typical))
    }

    static func median(_ values: [Duration]) -> Duration {
        values.sorted()[values.count / 2]
    }

    static func magnitude(_ value: Duration) -> Duration { value < .zero ? .zero - value : value }

    @Test("a wrong token for a stored order, and any token for an unknown one")
    func orderToken() async throws {
        let fixture = try await ServiceFixture.make()
        let service = fixture.wallet.webService
        let stored = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-1")
        let unknown = FullyQualifiedOrderIdentifier(orderTypeIdentifier: ServiceFixture.shopType, orderIdentifier: "ORDER-9")
        let wrong = String(repeating: "f", count: ServiceFixture.token.count)
        func refused(_ identifier: FullyQualifiedOrderIdentifier) async throws {
            do {
                _ = try await service.order(identifier, authenticationToken: wrong, includingArchive: false)
                Issue.record("a wrong token was accepted")
            } catch WebServiceError.unauthorized {}
        }
        let (difference, control, typical) = try await Self.medianDifference(
            { try await refused(stored) }, { try await refused(unknown) })
        print("order token: median(stored − unknown) = \(difference), A/A control \(control), one refusal \(typical)")
        #expect(Self.magnitude(difference) < Self.bound, "stored − unknown = \(difference) (control \(control))")
    }

    @Test("a wrong secret for a registered client, and an unknown client id")
    func clientSecret() async throws {
        let fixture = try await FinanceWebTests.fixture()
        let consent = fixture.wallet.consent
        let wrong = "wcs_" + String(repeating: "A", count: 43)
        let registered = ClientCredentials(id: fixture.client.client.id.rawValue, secret: wrong)
        let unknown = ClientCredentials(id: "client." + String(repeating: "0", count: 16), secret: wrong)
        func refused(_ credentials: ClientCredentials) async throws {
            do {
                _ = try await consent.authenticatedClient(credentials)
                Issue.record("\(credentials.id) was accepted")
            } catch ConsentError.invalidClient {}
        }
        let (difference, control, typical) = try await Self.medianDifference(
            { try await refused(registered) }, { try await refused(unknown) })
        print("client secret: median(registered − unknown) = \(difference), A/A control \(control), one refusal \(typical)")
        #expect(Self.magnitude(difference) < Self.bound, "registered − unknown = \(difference) (control \(control))")
    }

    @Test("a wrong secret for a real key, and an unknown key")
    func apiKey() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let created = try await fixture.wallet.createAPIKey(name: "timing", orderTypes: [ServiceFixture.shopType])
        let identifier = created.key.identifier
        let secret = String(repeating: "0", count: 64)
        let realKeyWrongSecret = "wok_\(identifier)_\(secret)"
        let unknownKey = "wok_\(String(repeating: "a", count: 16))_\(secret)"
        func refused(_ token: String) async throws {
            if try await fixture.wallet.authenticateAPIKey(token) != nil { Issue.record("\(token) was accepted") }
        }
        let (difference, control, typical) = try await Self.medianDifference(
            { try await refused(realKeyWrongSecret) }, { try await refused(unknownKey) })
        print("API key: median(real id − unknown id) = \(difference), A/A control \(control), one refusal \(typical)")
        #expect(Self.magnitude(difference) < Self.bound, "real − unknown = \(difference) (control \(control))")
    }
}
