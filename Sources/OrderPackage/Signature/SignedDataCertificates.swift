import Foundation

/// Separates the `certificates` field from a DER-encoded CMS ContentInfo/SignedData.
///
/// Why: OpenSSL 3.0 spends ~170 µs decoding each certificate's public key (openssl/openssl#19119),
/// which is most of the cost of parsing a signature — yet a merchant's archives embed the same
/// leaf and WWDR certificate every time. With the field taken out, the structure parses cheaply
/// and the certificates come from ``X509CertificateCache``. The signature never covers this field
/// (RFC 5652 §5.4), so removing it changes nothing that is verified.
///
/// Only plain definite-length DER is rewritten: anything else (BER indefinite lengths, high tag
/// numbers, non-X.509 certificate choices, repeated fields) returns nil and is parsed as is.
enum SignedDataCertificates {
    struct Split {
        /// The ContentInfo without the `certificates` field.
        var structure: Data
        /// Each embedded certificate's DER.
        var certificates: [Data]
    }

    static func split(_ der: Data) -> Split? {
        let bytes = [UInt8](der)
        guard let info = Element(bytes, at: 0), info.tag == 0x30, info.end == bytes.count,
            let infoFields = info.children(bytes), infoFields.count == 2,
            infoFields[0].tag == 0x06, infoFields[1].tag == 0xA0,
            let explicit = infoFields[1].children(bytes), explicit.count == 1, explicit[0].tag == 0x30,
            let signedFields = explicit[0].children(bytes)
        else { return nil }

        let certificateFields = signedFields.indices.filter { signedFields[$0].tag == 0xA0 }
        guard certificateFields.count <= 1 else { return nil }
        guard let index = certificateFields.first else { return Split(structure: der, certificates: []) }
        guard let certificates = signedFields[index].children(bytes), certificates.allSatisfy({ $0.tag == 0x30 }) else {
            return nil
        }

        var signedContent: [UInt8] = []
        for (position, field) in signedFields.enumerated() where position != index {
            signedContent += bytes[field.start..<field.end]
        }
        let contentType = Array(bytes[infoFields[0].start..<infoFields[0].end])
        let structure = encode(0x30, contentType + encode(0xA0, encode(0x30, signedContent)))
        return Split(structure: Data(structure), certificates: certificates.map { Data(bytes[$0.start..<$0.end]) })
    }

    /// One DER element: tag, and where it and its content lie.
    struct Element {
        var tag: UInt8
        var start: Int
        var contentStart: Int
        var end: Int

        init?(_ bytes: [UInt8], at start: Int) {
            guard start + 2 <= bytes.count, bytes[start] & 0x1F != 0x1F else { return nil }
            var cursor = start + 2
            var length = Int(bytes[start + 1])
            if length & 0x80 != 0 {
                let count = length & 0x7F
                // 0x80 is BER's indefinite length; more than 4 length bytes is never a signature.
                guard (1...4).contains(count), cursor + count <= bytes.count else { return nil }
                length = bytes[cursor..<cursor + count].reduce(0) { $0 << 8 | Int($1) }
                cursor += count
            }
            guard length <= bytes.count - cursor else { return nil }
            self.tag = bytes[start]
            self.start = start
            self.contentStart = cursor
            self.end = cursor + length
        }

        /// The elements inside a constructed element, or nil if they do not tile its content.
        func children(_ bytes: [UInt8]) -> [Element]? {
            guard tag & 0x20 != 0 else { return nil }
            var elements: [Element] = []
            var cursor = contentStart
            while cursor < end {
                guard let element = Element(bytes, at: cursor), element.end <= end else { return nil }
                elements.append(element)
                cursor = element.end
            }
            return elements
        }
    }

    /// A DER element with a minimal definite length.
    static func encode(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        var header: [UInt8] = [tag]
        if count < 0x80 {
            header.append(UInt8(count))
        } else {
            let lengthBytes = withUnsafeBytes(of: UInt32(count).bigEndian) { Array($0.drop { $0 == 0 }) }
            header.append(0x80 | UInt8(lengthBytes.count))
            header += lengthBytes
        }
        return header + content
    }
}
