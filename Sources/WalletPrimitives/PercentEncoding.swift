/// Percent-encoding (RFC 3986 §2.1) of everything but the unreserved characters
/// (`A–Z a–z 0–9 - . _ ~`): safe in a query value, a path segment or a form field, whatever the
/// text holds (`&`, `=`, `+`, `#` included).
///
/// ```swift
/// PercentEncoding.encode("a b&c")   // "a%20b%26c"
/// ```
public enum PercentEncoding {
    public static func encode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return result
    }
}
