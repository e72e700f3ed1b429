import CZlib
import Foundation

/// One entry's contents read straight from its data in the archive's bytes: a stored entry
/// copied, a deflated one inflated from its raw stream, and the CRC-32 computed over each chunk
/// of output as it is written, while it is still in the cache.
///
/// libzip reads the central directory (``LibZipArchive``); reading the data through it cost a
/// source chain per entry (window, decompression, CRC layer) and a copy through its buffers, a
/// tenth of a verification (Benchmarks/README.md, issue 44). ``ZipLayout`` has already located
/// every entry's data and confirmed the local header against the central directory.
enum EntryDataReader {
    enum Outcome {
        /// Exactly the declared size with the declared CRC-32; `endsExactly` tells whether a
        /// deflate stream ended exactly at the end of the entry's data (always true when stored).
        case complete(Data, endsExactly: Bool)
        /// The data ended after `count` bytes.
        case short(count: Int)
        /// More data than declared: reading stopped one byte past the declared size.
        case longer
        /// The contents do not match the declared CRC-32.
        case crcMismatch
        /// The deflate stream is damaged.
        case damaged(String)
    }

    /// Output is checksummed in chunks of this size as it is inflated.
    static let chunk = 32 << 10

    static func read(
        _ data: UnsafeRawBufferPointer, compression: ZipArchive.CompressionMethod, declaredSize: Int, crc32: UInt32
    ) -> Outcome {
        switch compression {
        case .stored:
            guard data.count >= declaredSize else { return .short(count: data.count) }
            guard data.count == declaredSize else { return .longer }
            let contents = Data(data)
            let actual = contents.withUnsafeBytes { CRC32.update(0, $0) }
            return actual == crc32 ? .complete(contents, endsExactly: true) : .crcMismatch
        case .deflate:
            return inflate(data, declaredSize: declaredSize, crc32: crc32)
        }
    }

    private static func inflate(_ data: UnsafeRawBufferPointer, declaredSize: Int, crc32: UInt32) -> Outcome {
        guard data.count <= Int(UInt32.max), declaredSize <= Int(UInt32.max) else { return .damaged("too large for zlib") }
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return .damaged("zlib cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        var input = data.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self)) }
        stream.avail_in = uInt(data.count)
        // Uninitialized: inflate fills it. Freed here unless handed to the answer's `Data`.
        guard let output = malloc(max(declaredSize, 1))?.assumingMemoryBound(to: Bytef.self) else {
            return .damaged("out of memory")
        }
        var handedOver = false
        defer { if !handedOver { free(output) } }
        var produced = 0
        var crc: UInt32 = 0
        var ended = false
        while produced < declaredSize {
            stream.next_in = input
            stream.next_out = output + produced
            let room = min(chunk, declaredSize - produced)
            stream.avail_out = uInt(room)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            input = stream.next_in
            let written = room - Int(stream.avail_out)
            crc = CRC32.update(crc, UnsafeRawBufferPointer(start: output + produced, count: written))
            produced += written
            if status == Z_STREAM_END {
                ended = true
                break
            }
            guard status == Z_OK else {
                // Z_BUF_ERROR: no progress possible, the input is used up.
                return status == Z_BUF_ERROR ? .short(count: produced) : .damaged(Self.reason(stream, status))
            }
        }
        if !ended {
            // The declared size is reached; the stream must end without another byte of output.
            var probe: UInt8 = 0
            let status: Int32 = withUnsafeMutablePointer(to: &probe) { probe in
                stream.next_in = input
                stream.next_out = probe
                stream.avail_out = 1
                return CZlib.inflate(&stream, Z_NO_FLUSH)
            }
            guard stream.avail_out == 1 else { return .longer }
            guard status == Z_STREAM_END else {
                return status == Z_OK || status == Z_BUF_ERROR ? .short(count: produced) : .damaged(Self.reason(stream, status))
            }
        }
        guard produced == declaredSize else { return .short(count: produced) }
        guard crc == crc32 else { return .crcMismatch }
        let endsExactly = stream.avail_in == 0
        handedOver = true
        return .complete(Data(bytesNoCopy: output, count: produced, deallocator: .free), endsExactly: endsExactly)
    }

    /// zlib's message for a failed `inflate`, or its status.
    private static func reason(_ stream: z_stream, _ status: Int32) -> String {
        stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
    }
}
