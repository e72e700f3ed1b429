import Foundation

/// glibc's allocator hands freed memory back to the kernel once 128 KiB of it lies at the top of
/// a heap, so each archive's ~100 KB buffers came back as fresh pages to fault in and zero —
/// 6 % of `orders verify`'s time (Benchmarks/README.md, issue 44). `orders verify` and
/// `orders add` keep up to 16 MiB of freed memory per heap for the next archive instead
/// (`M_TRIM_THRESHOLD`; the same as running with
/// `GLIBC_TUNABLES=glibc.malloc.trim_threshold=16777216`). `orders serve` keeps glibc's default:
/// its memory after a burst is what the hardening tests bound.
enum MallocTuning {
    static func keepFreedMemory() {
        #if os(Linux)
            // mallopt is declared in <malloc.h>, which Swift's Glibc module does not import.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(nil, "mallopt") else { return }  // nil: RTLD_DEFAULT on glibc
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
            _ = mallopt(trimThreshold, 16 << 20)
        #endif
    }
}
