import NIOCore
import NIOPosix

/// The event loops of the PostgreSQL backend's connections — its own, apart from
/// `MultiThreadedEventLoopGroup.singleton`, whose loops carry the HTTP server's channels and the
/// HTTP clients'. Only the connections' I/O runs here (a statement written, its rows read off the
/// socket); what a transaction does between its statements runs on ``PostgresThreads``.
enum PostgresEventLoops {
    /// One loop per core, made the first time a connection opens, for the life of the process.
    static let group: any EventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
}
