import Hummingbird
import HummingbirdTesting
import TestArchiveTable

extension ApplicationProtocol {
    /// `test(.live)`, the server's tasks on threads of their own (``DedicatedExecutor/servers``):
    /// a test's raw-socket client must not wait for the tests that happen to hold the pool's threads.
    func testLive<Value: Sendable>(
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await withTaskExecutorPreference(DedicatedExecutor.servers) {
            try await self.test(.live, test)
        }
    }
}
