import Foundation

/// A `.lproj/order.strings` file: lines of `"Key" = "Value";`, with `/* */` and `//` comments.
///
/// Apple asks for UTF-16 when the text is not ASCII; UTF-16 (with a byte order mark) and UTF-8
/// (with or without one) are both accepted.
struct OrderStrings {
    struct ParseError: Error {
        var reason: String
    }

    private(set) var entries: [(key: String, value: String)] = []

    var keys: Set<String> { Set(entries.map(\.key)) }

    init(parsing data: Data) throws(ParseError) {
        let text = try Self.decode(data)
        var scanner = Scanner(Array(text.unicodeScalars))
        var seen: Set<String> = []
        while true {
            try scanner.skipTrivia()
            if scanner.atEnd { break }
            let key = try scanner.quotedString()
            try scanner.skipTrivia()
            try scanner.expect("=")
            try scanner.skipTrivia()
            let value = try scanner.quotedString()
            try scanner.skipTrivia()
            try scanner.expect(";")
            guard seen.insert(key).inserted else { throw ParseError(reason: "the key \"\(key)\" appears twice") }
            entries.append((key, value))
        }
    }

    private static func decode(_ data: Data) throws(ParseError) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            guard bytes.count % 2 == 0 else { throw ParseError(reason: "odd number of bytes for UTF-16") }
            let bigEndian = bytes[0] == 0xFE
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2 - 1)
            for index in stride(from: 2, to: bytes.count, by: 2) {
                units.append(
                    bigEndian
                        ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
                        : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index]))
            }
            guard let text = String(validating: units, as: UTF16.self) else { throw ParseError(reason: "invalid UTF-16") }
            return text
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let text = String(validating: body, as: UTF8.self) else {
            throw ParseError(reason: "neither UTF-16 with a byte order mark nor valid UTF-8")
        }
        return text
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var position = 0
        var line = 1

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        var atEnd: Bool { position >= scalars.count }

        mutating func skipTrivia() throws(ParseError) {
            while position < scalars.count {
                let scalar = scalars[position]
                if scalar == "\n" {
                    line += 1
                    position += 1
                } else if scalar.properties.isWhitespace {
                    position += 1
                } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "*" {
                    position += 2
                    while position + 1 < scalars.count, !(scalars[position] == "*" && scalars[position + 1] == "/") {
                        if scalars[position] == "\n" { line += 1 }
                        position += 1
                    }
                    guard position + 1 < scalars.count else { throw ParseError(reason: "unterminated comment") }
                    position += 2
                } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "/" {
                    while position < scalars.count, scalars[position] != "\n" { position += 1 }
                } else {
                    return
                }
            }
        }

        mutating func expect(_ expected: Unicode.Scalar) throws(ParseError) {
            guard position < scalars.count, scalars[position] == expected else {
                throw ParseError(reason: "expected '\(expected)' on line \(line)")
            }
            position += 1
        }

        mutating func quotedString() throws(ParseError) -> String {
            try expect("\"")
            var result = String.UnicodeScalarView()
            while position < scalars.count {
                let scalar = scalars[position]
                position += 1
                switch scalar {
                case "\"":
                    return String(result)
                case "\\":
                    guard position < scalars.count else { break }
                    let escape = scalars[position]
                    position += 1
                    switch escape {
                    case "n": result.append("\n")
                    case "t": result.append("\t")
                    case "r": result.append("\r")
                    case "0": result.append("\0")
                    case "\"", "\\", "'": result.append(escape)
                    case "u", "U":
                        guard position + 4 <= scalars.count,
                            let value = UInt32(String(String.UnicodeScalarView(scalars[position..<position + 4])), radix: 16),
                            let decoded = Unicode.Scalar(value)
                        else { throw ParseError(reason: "invalid \\\(escape) escape on line \(line)") }
                        result.append(decoded)
                        position += 4
                    default:
                        throw ParseError(reason: "unknown escape \\\(escape) on line \(line)")
                    }
                case "\n":
                    line += 1
                    result.append(scalar)
                default:
                    result.append(scalar)
                }
            }
            throw ParseError(reason: "unterminated string on line \(line)")
        }
    }
}
