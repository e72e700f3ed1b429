import Foundation
import Synchronization

/// Random bytes from the system's generator, fetched 4 KiB at a time: request identifiers need
/// 16 per request, and one `getrandom` call per request cost more than the rest of the request's
/// context. The bytes are the kernel's, each handed out once.
package final class RandomBytePool: Sendable {
    package static let shared = RandomBytePool()

    private struct State {
        var bytes = [UInt8](repeating: 0, count: 4096)
        var used = 4096
    }

    private let state = Mutex(State())

    /// Fills `buffer` (at most 4 KiB) with random bytes.
    package func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count <= 4096)
        state.withLock { state in
            if state.used + buffer.count > state.bytes.count {
                // glibc's arc4random_buf: one getrandom(2) call for the whole pool.
                state.bytes.withUnsafeMutableBytes { pool in
                    if let base = pool.baseAddress { arc4random_buf(base, pool.count) }
                }
                state.used = 0
            }
            state.bytes.withUnsafeBytes { pool in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: pool[state.used..<state.used + buffer.count]))
            }
            state.used += buffer.count
        }
    }
}
