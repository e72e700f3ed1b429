import Foundation
import Synchronization

/// Where log lines go: a file descriptor (standard error), written either at once by the caller
/// (commands that run and exit) or by a thread of its own from a bounded buffer (the service).
///
/// A service must never wait for its log. Standard error may be a pipe nobody drains, a terminal
/// paused with Ctrl-S, or a full disk; a request that logged a line would then block in `write`,
/// and with it every request on its thread and the shutdown that waits for them. In the
/// background mode a line is appended to a buffer of at most ``capacity`` bytes and the call
/// returns; a line that does not fit is dropped and counted (``droppedLines``, and one line
/// saying how many when the writer catches up). ``flush(timeout:)`` waits a bounded time for the
/// buffer to empty, so that stopping never hangs on a stuck descriptor.
///
/// ```swift
/// LogSink.standardError.startBackgroundWriting(capacity: 1 << 20)
/// LogSink.standardError.write("listening")
/// _ = LogSink.standardError.flush(timeout: .seconds(2))
/// ```
public final class LogSink: @unchecked Sendable {
    /// Standard error, the sink of every logger the `orders` tool makes.
    public static let standardError = LogSink(fileDescriptor: STDERR_FILENO)

    private let fileDescriptor: Int32
    // NSCondition guards everything below it: the writer thread waits on it for lines, and
    // `flush` for the buffer to empty.
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var backgroundCapacity: Int?
    private var writing = false
    private var droppedSinceReport = 0
    private let dropped = Atomic<Int>(0)

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Lines dropped since the process started because the buffer was full.
    public var droppedLines: Int { dropped.load(ordering: .relaxed) }

    /// The buffer's size in background mode; nil while lines are written at once.
    public var capacity: Int? {
        condition.lock()
        defer { condition.unlock() }
        return backgroundCapacity
    }

    /// From now on, lines go through a buffer of `capacity` bytes written by a thread of the
    /// sink's own. Calling it again changes nothing.
    public func startBackgroundWriting(capacity: Int = 1 << 20) {
        condition.lock()
        defer { condition.unlock() }
        guard backgroundCapacity == nil else { return }
        backgroundCapacity = max(capacity, 4096)
        let thread = Thread { [self] in writeLoop() }
        thread.name = "orders log writer"
        thread.start()
    }

    /// Writes `line` and a newline: at once, or into the buffer (dropped and counted when it does
    /// not fit).
    public func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        condition.lock()
        guard let capacity = backgroundCapacity else {
            // At once, under the lock, so that lines of concurrent callers never interleave.
            Self.writeAll(bytes, to: fileDescriptor)
            condition.unlock()
            return
        }
        if pending.count + bytes.count <= capacity {
            pending.append(contentsOf: bytes)
        } else {
            droppedSinceReport += 1
            dropped.add(1, ordering: .relaxed)
        }
        // Broadcast: `flush` callers wait on the same condition as the writer thread.
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every buffered line is written, or `timeout` passes; true when the buffer
    /// emptied. At once in the immediate mode.
    @discardableResult
    public func flush(timeout: Duration) -> Bool {
        let deadline = Date(
            timeIntervalSinceNow: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while !pending.isEmpty || writing || droppedSinceReport > 0 {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }

    private func writeLoop() {
        while true {
            condition.lock()
            while pending.isEmpty && droppedSinceReport == 0 { condition.wait() }
            var batch = pending
            pending = []
            pending.reserveCapacity(min(batch.count, 64 << 10))
            if droppedSinceReport > 0 {
                let note = "orders: \(droppedSinceReport) log lines dropped: standard error did not keep up\n"
                batch.append(contentsOf: note.utf8)
                droppedSinceReport = 0
            }
            writing = true
            condition.unlock()

            Self.writeAll(batch, to: fileDescriptor)

            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }

    /// `write(2)` until every byte is out; gives up on an error other than an interruption (a
    /// closed pipe), since a log has nowhere to report its own failure.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
