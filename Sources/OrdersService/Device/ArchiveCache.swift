import NIOCore
import Synchronization

/// Signed archives ready to send, keyed by their SHA-256: a device's GET reads only the
/// version's facts from the store and, when the digest is here, sends these bytes without
/// reading or copying the blob. Keyed by content, an entry can never be stale; the oldest
/// entries leave once the cache holds more than its byte limit.
final class ArchiveCache: Sendable {
    private struct State {
        var buffers: [String: ByteBuffer] = [:]
        var order: [String] = []
        var bytes = 0
    }

    let byteLimit: Int
    private let state = Mutex(State())

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    subscript(digest: String) -> ByteBuffer? {
        state.withLock { $0.buffers[digest] }
    }

    func insert(_ buffer: ByteBuffer, digest: String) {
        guard buffer.readableBytes <= byteLimit else { return }
        state.withLock { state in
            guard state.buffers[digest] == nil else { return }
            state.buffers[digest] = buffer
            state.order.append(digest)
            state.bytes += buffer.readableBytes
            while state.bytes > byteLimit, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.bytes -= state.buffers.removeValue(forKey: oldest)?.readableBytes ?? 0
            }
        }
    }
}
