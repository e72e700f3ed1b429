import NIOCore
import Synchronization

/// Runs a task's jobs on one NIO event loop: the loop of a connection, so that code checking the
/// connection and the write after it happen on the loop with nothing of the channel's in between
/// (``PostgresConnection/sending(_:)``).
///
/// One executor per event loop, made once: the process has as many as its event loop group has
/// threads, and a task that already prefers the loop's executor keeps running where it is.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    private init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    private static let made = Mutex<[ObjectIdentifier: EventLoopTaskExecutor]>([:])

    /// The executor of `eventLoop`.
    static func of(_ eventLoop: any EventLoop) -> EventLoopTaskExecutor {
        made.withLock { made in
            if let executor = made[ObjectIdentifier(eventLoop)] { return executor }
            let executor = EventLoopTaskExecutor(eventLoop)
            made[ObjectIdentifier(eventLoop)] = executor
            return executor
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        eventLoop.execute { job.runSynchronously(on: executor) }
    }
}
