/// One element of a BER encoding, as CMS signatures use it: low tag numbers, definite lengths in
/// their shortest form, and indefinite lengths on constructed elements (BouncyCastle's default
/// encoding, and streaming OpenSSL). Anything else is refused, so that one structure has few
/// encodings.
struct BERElement {
    /// Why bytes are not such an element.
    struct Malformed: Error {
        var reason: String
    }

    var tag: UInt8
    /// Where the element's identifier octet is.
    var start: Int
    /// Where its content begins and ends (before any end-of-contents octets).
    var content: Range<Int>
    /// Where the element ends, end-of-contents octets included.
    var end: Int
    /// The children of a constructed element; read eagerly for indefinite lengths, which can only
    /// be measured that way.
    private var indefiniteChildren: [BERElement]?

    var isConstructed: Bool { tag & 0x20 != 0 }

    /// Whether the length is definite (then, by ``init(_:at:limit:depth:)``, in its shortest form).
    var isDefinite: Bool { indefiniteChildren == nil }

    /// Deep enough for a certificate inside a SignedData inside a ContentInfo; hostile nesting
    /// stops here instead of exhausting the stack.
    static let maximumDepth = 24

    /// The element starting at `start`, which must end by `limit`.
    init(_ bytes: [UInt8], at start: Int, limit: Int, depth: Int = 0) throws(Malformed) {
        guard depth <= Self.maximumDepth else { throw Malformed(reason: "nested more than \(Self.maximumDepth) levels deep") }
        guard start + 2 <= limit else { throw Malformed(reason: "truncated at offset \(start)") }
        let tag = bytes[start]
        guard tag & 0x1F != 0x1F else { throw Malformed(reason: "a high tag number at offset \(start)") }
        var cursor = start + 2
        let first = Int(bytes[start + 1])
        self.tag = tag
        self.start = start
        if first == 0x80 {
            guard tag & 0x20 != 0 else {
                throw Malformed(reason: "an indefinite length on a primitive element at offset \(start)")
            }
            var children: [BERElement] = []
            while true {
                guard cursor + 2 <= limit else {
                    throw Malformed(reason: "an indefinite length without its end at offset \(start)")
                }
                if bytes[cursor] == 0, bytes[cursor + 1] == 0 { break }
                let child = try BERElement(bytes, at: cursor, limit: limit, depth: depth + 1)
                children.append(child)
                cursor = child.end
            }
            content = start + 2..<cursor
            end = cursor + 2
            indefiniteChildren = children
            return
        }
        var length = first
        if first & 0x80 != 0 {
            let count = first & 0x7F
            guard count <= 4, cursor + count <= limit else { throw Malformed(reason: "an unsupported length at offset \(start)") }
            length = bytes[cursor..<cursor + count].reduce(0) { $0 << 8 | Int($1) }
            guard length >= 0x80, bytes[cursor] != 0 else {
                throw Malformed(reason: "a length not in its shortest form at offset \(start)")
            }
            cursor += count
        }
        guard length <= limit - cursor else { throw Malformed(reason: "a length past the end at offset \(start)") }
        content = cursor..<cursor + length
        end = cursor + length
        indefiniteChildren = nil
    }

    /// The elements inside a constructed element, which must fill its content exactly.
    func children(_ bytes: [UInt8], depth: Int = 1) throws(Malformed) -> [BERElement] {
        guard isConstructed else {
            throw Malformed(reason: "a primitive element where a constructed one belongs at offset \(start)")
        }
        if let indefiniteChildren { return indefiniteChildren }
        var elements: [BERElement] = []
        var cursor = content.lowerBound
        while cursor < content.upperBound {
            let element = try BERElement(bytes, at: cursor, limit: content.upperBound, depth: depth)
            elements.append(element)
            cursor = element.end
        }
        return elements
    }

    /// The element's bytes exactly as encoded.
    func encoding(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes[start..<end]
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
