import Dispatch
import Foundation

/// The bound on how long `orders serve` takes to stop: from the first SIGTERM or SIGINT, the
/// service group has the grace period for requests in flight, then ``cancellationTime`` for
/// cancelled tasks to end, and the log ``logFlushTime`` to drain; a process still alive a second
/// after all that (a task that ignores cancellation, a write stuck in the kernel) is ended here
/// with exit status 1. docs/serve.md documents the total.
final class ShutdownWatchdog: @unchecked Sendable {  // immutable after init
    static let cancellationTime = 3
    static let logFlushTime = 1

    private let sources: [any DispatchSourceSignal]

    init(gracePeriod: Int) {
        let limit = gracePeriod + Self.cancellationTime + Self.logFlushTime + 1
        let queue = DispatchQueue(label: "orders.shutdown-watchdog")
        sources = [SIGTERM, SIGINT].map { signal in
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler {
                queue.asyncAfter(deadline: .now() + .seconds(limit)) {
                    // Standard error may be the stuck pipe: try once, never wait.
                    _ = fcntl(STDERR_FILENO, F_SETFL, fcntl(STDERR_FILENO, F_GETFL) | O_NONBLOCK)
                    let note = "orders: still running \(limit) s after the stop signal; exiting\n"
                    _ = note.withCString { write(STDERR_FILENO, $0, strlen($0)) }
                    _exit(1)
                }
            }
            source.resume()
            return source
        }
    }
}
