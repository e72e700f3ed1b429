import Foundation

/// A DER tree for tests that rewrite signatures: parse, change a node, encode again. Definite
/// lengths only; constructed elements are parsed all the way down, primitives kept as bytes.
public indirect enum DERNode: Equatable {
    case primitive(tag: UInt8, content: [UInt8])
    case constructed(tag: UInt8, children: [DERNode])
    /// Bytes written as they are (for encodings DER does not allow).
    case raw([UInt8])

    /// Parses one element that fills `bytes`.
    public init?(_ bytes: [UInt8]) {
        guard let (node, end) = Self.parse(bytes, at: 0), end == bytes.count else { return nil }
        self = node
    }

    private static func parse(_ bytes: [UInt8], at start: Int) -> (DERNode, Int)? {
        guard start + 2 <= bytes.count else { return nil }
        let tag = bytes[start]
        var cursor = start + 2
        var length = Int(bytes[start + 1])
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...4).contains(count), cursor + count <= bytes.count else { return nil }
            length = bytes[cursor..<cursor + count].reduce(0) { $0 << 8 | Int($1) }
            cursor += count
        }
        guard cursor + length <= bytes.count else { return nil }
        let content = Array(bytes[cursor..<cursor + length])
        guard tag & 0x20 != 0 else { return (.primitive(tag: tag, content: content), cursor + length) }
        var children: [DERNode] = []
        var position = 0
        while position < content.count {
            guard let (child, end) = parse(content, at: position) else { return nil }
            children.append(child)
            position = end
        }
        return (.constructed(tag: tag, children: children), cursor + length)
    }

    public var tag: UInt8 {
        switch self {
        case .primitive(let tag, _), .constructed(let tag, _): tag
        case .raw(let bytes): bytes.first ?? 0
        }
    }

    public var children: [DERNode] {
        get {
            if case .constructed(_, let children) = self { return children }
            return []
        }
        set {
            if case .constructed(let tag, _) = self { self = .constructed(tag: tag, children: newValue) }
        }
    }

    /// The node at a path of child indices.
    public subscript(path: [Int]) -> DERNode {
        get { path.reduce(self) { $0.children[$1] } }
        set {
            guard let first = path.first else {
                self = newValue
                return
            }
            var children = self.children
            children[first][Array(path.dropFirst())] = newValue
            self.children = children
        }
    }

    public var encoded: [UInt8] {
        switch self {
        case .primitive(let tag, let content): Self.header(tag, content.count) + content
        case .constructed(let tag, let children):
            {
                let content = children.flatMap(\.encoded); return Self.header(tag, content.count) + content
            }()
        case .raw(let bytes): bytes
        }
    }

    static func header(_ tag: UInt8, _ count: Int) -> [UInt8] {
        if count < 0x80 { return [tag, UInt8(count)] }
        let lengthBytes = withUnsafeBytes(of: UInt32(count).bigEndian) { Array($0.drop { $0 == 0 }) }
        return [tag, 0x80 | UInt8(lengthBytes.count)] + lengthBytes
    }

    /// An AlgorithmIdentifier with an OID given by its content bytes, and optional parameters.
    public static func algorithm(_ oid: [UInt8], parameters: DERNode? = .primitive(tag: 0x05, content: [])) -> DERNode {
        .constructed(tag: 0x30, children: [.primitive(tag: 0x06, content: oid)] + (parameters.map { [$0] } ?? []))
    }
}
