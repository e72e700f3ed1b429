import COpenSSL

/// An owned `ASN1_OBJECT` (an OID) built from its dotted text.
final class ASN1Object {
    let pointer: OpaquePointer
    let dotted: String

    init(dotted: String) throws(OpenSSLError) {
        // no_name = 1: only numerical forms, so "1.2.840..." is never mistaken for a short name.
        guard let object = OBJ_txt2obj(dotted, 1) else { throw OpenSSLError("parse the OID \(dotted)") }
        pointer = object
        self.dotted = dotted
    }

    /// The dotted text of a borrowed object.
    static func dottedText(of object: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let length = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        guard length > 0 else { return "" }
        return String(decoding: buffer.prefix(Int(min(length, 127))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        ASN1_OBJECT_free(pointer)
    }
}
