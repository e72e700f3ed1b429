import Synchronization
import Testing

@testable import OrdersService

@Suite("/health asks the store at most once per freshness while it answers")
struct HealthProbeTests {
    struct StoreDown: Error {}

    final class Store: Sendable {
        let asked = Mutex(0)
        let answers = Mutex(true)

        func probe() throws {
            asked.withLock { $0 += 1 }
            guard answers.withLock({ $0 }) else { throw StoreDown() }
        }
    }

    @Test("a good answer is trusted for the freshness; a failure is not remembered")
    func remembersSuccessOnly() async throws {
        let store = Store()
        let probe = HealthProbe(freshness: .seconds(3600))
        for _ in 0..<5 { try await probe.check { try store.probe() } }
        #expect(store.asked.withLock { $0 } == 1)

        let failing = HealthProbe(freshness: .seconds(3600))
        store.answers.withLock { $0 = false }
        for _ in 0..<3 {
            await #expect(throws: StoreDown.self) { try await failing.check { try store.probe() } }
        }
        #expect(store.asked.withLock { $0 } == 4, "each check after a failure asks again")
        store.answers.withLock { $0 = true }
        try await failing.check { try store.probe() }
        try await failing.check { try store.probe() }
        #expect(store.asked.withLock { $0 } == 5, "healthy again at the next check, then remembered")
    }

    @Test("with no freshness every check asks the store")
    func noFreshness() async throws {
        let store = Store()
        let probe = HealthProbe(freshness: .zero)
        for _ in 0..<3 { try await probe.check { try store.probe() } }
        #expect(store.asked.withLock { $0 } == 3)
    }
}
