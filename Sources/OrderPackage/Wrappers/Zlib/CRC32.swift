import CCRC32
import CZlib

/// CRC-32 as zip entries carry it: folded with carry-less multiplication where the processor
/// has it (``CCRC32``, several times zlib's speed over whole entries), zlib's `crc32_z` for short
/// inputs, for the last bytes, and on other processors. Both give the same value (`CRC32Tests`).
enum CRC32 {
    private static let folds = wo_crc32_fold_available() != 0

    /// `crc` (zlib's value; 0 to start) extended over `bytes`.
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return crc }
        var crc = crc
        var start = 0
        if folds, bytes.count >= 64 {
            let folded = bytes.count & ~15
            crc = ~wo_crc32_fold(base, folded, ~crc)
            start = folded
        }
        guard start < bytes.count else { return crc }
        return UInt32(truncatingIfNeeded: crc32_z(UInt(crc), base + start, z_size_t(bytes.count - start)))
    }
}
