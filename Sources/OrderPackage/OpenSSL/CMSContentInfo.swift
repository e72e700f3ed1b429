import COpenSSL
import Foundation

/// An owned OpenSSL `CMS_ContentInfo`.
final class CMSContentInfo {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Parses a DER-encoded ContentInfo.
    convenience init(der: Data) throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        let bio = try MemoryBIO(der)
        guard let parsed = d2i_CMS_bio(bio.pointer, nil) else { throw OpenSSLError("parse the CMS structure") }
        self.init(taking: parsed)
    }

    /// The DER encoding.
    func derBytes() throws(OpenSSLError) -> Data {
        let bio = try MemoryBIO()
        guard i2d_CMS_bio(bio.pointer, pointer) == 1 else { throw OpenSSLError("encode the CMS structure") }
        return bio.contents
    }

    deinit {
        CMS_ContentInfo_free(pointer)
    }
}
