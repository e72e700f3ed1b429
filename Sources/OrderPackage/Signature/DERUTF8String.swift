import Foundation

/// Decodes exactly one DER UTF8String (tag 0x0C): ``BERElement``'s shortest-form lengths, nothing
/// after it.
enum DERUTF8String {
    static func decode(_ der: Data) -> String? {
        let bytes = [UInt8](der)
        guard let element = try? BERElement(bytes, at: 0, limit: bytes.count), element.tag == 0x0C,
            element.end == bytes.count
        else { return nil }
        return String(validating: bytes[element.content], as: UTF8.self)
    }
}
