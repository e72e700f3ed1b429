import Foundation
import Synchronization

/// The SHA-256 of an archive's bytes, computed the first time it is read.
///
/// A verification does not need it: it is the identity a store or the service gives a version.
/// Hashing the whole archive a second time was 13–14 % of `orders verify`, which prints it only
/// with `--json`. The first reader pays once; copies of a report share the result.
final class ArchiveDigest: Sendable {
    private let bytes: Data?
    private let hex: Mutex<String?>

    /// The digest of `bytes`, computed on first use (`bytes` is kept until then).
    init(of bytes: Data) {
        self.bytes = bytes
        hex = Mutex(nil)
    }

    /// A digest already known (decoded, or none: empty).
    init(hex: String) {
        bytes = nil
        self.hex = Mutex(hex)
    }

    var value: String {
        hex.withLock { hex in
            if let hex { return hex }
            let computed = bytes.map(SHA256Digest.hex(of:)) ?? ""
            hex = computed
            return computed
        }
    }
}
