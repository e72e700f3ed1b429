import NIOCore
import OrderRendering
import Synchronization

/// Values derived from a stored archive, keyed by its SHA-256 (and whatever else they depend
/// on): signed archives ready to send (``ArchiveCache``), rendered orders (``RenderedOrderCache``).
/// Keyed by content, an entry can never be stale; the oldest entries leave once the cache holds
/// more than its byte limit.
package final class ContentCache<Value: Sendable>: Sendable {
    private struct State {
        package var values: [String: Value] = [:]
        package var order: [String] = []
        package var bytes = 0
    }

    package let byteLimit: Int
    private let size: @Sendable (Value) -> Int
    private let state: Mutex<State>

    package init(byteLimit: Int, size: @escaping @Sendable (Value) -> Int) {
        self.byteLimit = byteLimit
        self.size = size
        state = Mutex(State())
    }

    package subscript(key: String) -> Value? {
        state.withLock { $0.values[key] }
    }

    /// Keeps `value` unless the key is already held (a key names one content: the first stays) or
    /// it alone is over the limit.
    package func insert(_ value: Value, digest key: String) {
        let bytes = size(value)
        guard bytes <= byteLimit else { return }
        state.withLock { state in
            guard state.values[key] == nil else { return }
            state.values[key] = value
            state.order.append(key)
            state.bytes += bytes
            while state.bytes > byteLimit, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                if let removed = state.values.removeValue(forKey: oldest) { state.bytes -= size(removed) }
            }
        }
    }
}

/// Signed archives ready to send: a device's GET reads only the version's facts from the store
/// and, when the digest is here, sends these bytes without reading or copying the blob.
package typealias ArchiveCache = ContentCache<ByteBuffer>

package extension ContentCache where Value == ByteBuffer {
    convenience init(byteLimit: Int) {
        self.init(byteLimit: byteLimit, size: { $0.readableBytes })
    }
}

/// Orders rendered for the customer page, by archive digest and the reader's languages.
package typealias RenderedOrderCache = ContentCache<RenderedOrder>

package extension ContentCache where Value == RenderedOrder {
    convenience init(byteLimit: Int) {
        self.init(byteLimit: byteLimit, size: { $0.html.utf8.count + $0.title.utf8.count })
    }
}
