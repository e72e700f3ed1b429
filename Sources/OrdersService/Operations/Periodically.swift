import ServiceLifecycle

/// The loop of the service's periodic chores (the consent sweep, the signing checks): `body` at
/// once and then every `interval`, until the server shuts down gracefully or the task is
/// cancelled — either of which ends a sleep early, which is how such a chore stops.
enum Periodically {
    static func run(every interval: Duration, _ body: @escaping @Sendable () async -> Void) async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    await body()
                    try await Task.sleep(for: interval)
                }
            }
        } catch is CancellationError {
            // Stopping.
        }
    }
}
