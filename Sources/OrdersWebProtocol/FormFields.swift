import WalletPrimitives

/// The fields of an `application/x-www-form-urlencoded` body or a URL query (WHATWG URL
/// standard, "application/x-www-form-urlencoded parsing"): `name=value` pairs separated by `&`,
/// `+` meaning a space, `%XX` a byte. Kept in order and with repeats, because OAuth refuses a
/// parameter given twice and the picker sends one `selected` per transaction.
///
/// Bounded: a stranger sends it. More than ``maximumFields`` fields, or a `%` not followed by two
/// hex digits, or bytes that are not UTF-8 after decoding, are a malformed request.
///
/// ```swift
/// let fields = try FormFields("client_id=app&state=a%20b&selected=1&selected=2")
/// fields.value("state")          // "a b"
/// fields.values("selected")      // ["1", "2"]
/// ```
public struct FormFields: Sendable, Hashable {
    public static let maximumFields = 1_000

    /// Every field, in order.
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ encoded: some StringProtocol, name: String = "form") throws(ServiceRequestError) {
        pairs = []
        for piece in encoded.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard pairs.count < Self.maximumFields else {
                throw .malformedBody(reason: "more than \(Self.maximumFields) fields", path: nil)
            }
            let parts = piece.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let fieldName = try Self.decode(parts[0], in: name)
            let value = parts.count > 1 ? try Self.decode(parts[1], in: name) : ""
            pairs.append((fieldName, value))
        }
    }

    public init(pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    /// The first value of `name`.
    public func value(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// The fields, encoded again (for an address that carries them on).
    public var encoded: String {
        pairs.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }.joined(separator: "&")
    }

    public static func == (lhs: FormFields, rhs: FormFields) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for pair in pairs {
            hasher.combine(pair.name)
            hasher.combine(pair.value)
        }
    }

    private static func decode(_ bytes: some Collection<UInt8>, in name: String) throws(ServiceRequestError) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let first = bytes.index(after: index)
                guard first != bytes.endIndex, bytes.index(after: first) != bytes.endIndex,
                    let high = hexValue(bytes[first]), let low = hexValue(bytes[bytes.index(after: first)])
                else { throw .malformedBody(reason: "a % in the \(name) is not followed by two hex digits", path: nil) }
                decoded.append(high << 4 | low)
                index = bytes.index(after: first)
            default:
                decoded.append(byte)
            }
            index = bytes.index(after: index)
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .malformedBody(reason: "the \(name) is not UTF-8 once decoded", path: nil)
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
