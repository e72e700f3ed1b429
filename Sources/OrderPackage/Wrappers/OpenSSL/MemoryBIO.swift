import COpenSSL
import COpenSSLShims
import Foundation

/// An owned OpenSSL memory `BIO`: the bridge between `Data` and OpenSSL's streaming APIs.
final class MemoryBIO {
    let pointer: OpaquePointer

    /// An empty, writable BIO.
    init() throws(OpenSSLError) {
        guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLError("allocate a memory BIO") }
        pointer = bio
    }

    /// A BIO holding a copy of `bytes`, ready to be read.
    convenience init(_ bytes: some DataProtocol) throws(OpenSSLError) {
        try self.init()
        let contiguous = Data(bytes)
        let written = contiguous.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
            return BIO_write(pointer, base, Int32(buffer.count))
        }
        guard written == Int32(contiguous.count) else { throw OpenSSLError("fill a memory BIO") }
    }

    /// Everything written to the BIO and not yet read.
    var contents: Data {
        var base: UnsafeMutablePointer<CChar>?
        let count = wo_BIO_get_mem_data(pointer, &base)
        guard let base, count > 0 else { return Data() }
        return Data(bytes: base, count: count)
    }

    deinit {
        BIO_free(pointer)
    }
}
