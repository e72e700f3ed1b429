import CZlib

/// Where a raw deflate stream (no zlib or gzip wrapper) ends — which libzip does not report.
///
/// Why it matters: for an entry with a data descriptor, a streaming reader finds the end of the
/// data by inflating, while libzip and the central directory use the compressed size. Bytes
/// after the stream's end but inside the compressed size would be a hidden record to the first
/// kind of reader and invisible to the second.
enum RawDeflateStream {
    /// Whether `input` holds exactly one complete deflate stream that inflates to at most
    /// `outputLimit` bytes. The output is discarded; inflating stops one buffer past the limit.
    static func endsExactly(_ input: UnsafeRawBufferPointer, outputLimit: Int) -> Bool {
        guard let base = input.baseAddress, input.count <= Int(UInt32.max) else { return false }
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return false
        }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)

        var output = [UInt8](repeating: 0, count: 32 << 10)
        var produced = 0
        while true {
            let (status, written) = output.withUnsafeMutableBytes { buffer -> (Int32, Int) in
                stream.next_out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(buffer.count)
                let status = inflate(&stream, Z_NO_FLUSH)
                return (status, buffer.count - Int(stream.avail_out))
            }
            produced += written
            if produced > outputLimit { return false }
            switch status {
            case Z_STREAM_END: return stream.avail_in == 0
            case Z_OK: continue
            default: return false  // damaged data, or the input ended first (Z_BUF_ERROR)
            }
        }
    }
}
