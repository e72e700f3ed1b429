/// A `multipart/form-data` body (RFC 7578), as a browser sends a form with a file: its parts, each
/// with its field name, the file name when it is a file, and its bytes.
///
/// Strict and bounded, because a stranger can send anything here: the boundary must be the one
/// the `Content-Type` names (1–70 characters, RFC 2046), at most ``maximumParts`` parts, each
/// part's headers at most ``maximumHeaderSize`` bytes, and the closing delimiter present. Anything
/// else is ``ServiceRequestError/malformedBody(reason:path:)`` naming what was wrong; nothing is kept.
public struct MultipartForm: Sendable {
    /// One part: its field name, the file name when it is a file, its media type when it names
    /// one, its bytes.
    public struct Part: Sendable {
        public var name: String
        public var filename: String?
        /// The part's `Content-Type` as sent, nil when it has none.
        public var contentType: String?
        public var content: ArraySlice<UInt8>
    }

    public static let maximumParts = 8
    public static let maximumHeaderSize = 4096

    /// The parts, in order.
    public let parts: [Part]

    /// The first part named `name`.
    public subscript(name: String) -> Part? { parts.first { $0.name == name } }

    /// The `boundary` parameter of a `multipart/form-data` content type.
    public static func boundary(of contentType: String) -> String? {
        let items = contentType.split(separator: ";").map { $0.trimmingSpaces }
        guard items.first?.lowercased() == "multipart/form-data" else { return nil }
        for item in items.dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "boundary" else { continue }
            var value = String(pair[1].trimmingSpaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }),
                value.utf8.last != 0x20
            else { return nil }
            return value
        }
        return nil
    }

    /// Parses `body` with the `boundary` its content type named, at most `maximumParts` parts;
    /// throws ``ServiceRequestError/malformedBody(reason:path:)`` naming what is wrong.
    public init(body: [UInt8], boundary: String, maximumParts: Int = Self.maximumParts) throws {
        let delimiter = Array("--\(boundary)".utf8)
        let separator = Array("\r\n\r\n".utf8)
        // The body opens with the first delimiter (a preamble before it is allowed and skipped).
        guard var position = body.firstRange(of: delimiter)?.upperBound else {
            throw ServiceRequestError.malformedBody(reason: "the form has no part (its boundary never appears)", path: nil)
        }
        let nextDelimiter = Array("\r\n--\(boundary)".utf8)
        var parts: [Part] = []
        while true {
            // After a delimiter: "--" closes the form, CRLF opens a part.
            if body[position...].starts(with: Array("--".utf8)) { break }
            guard body[position...].starts(with: Array("\r\n".utf8)) else {
                throw ServiceRequestError.malformedBody(reason: "a form boundary is not followed by a line break", path: nil)
            }
            position += 2
            guard parts.count < maximumParts else {
                throw ServiceRequestError.malformedBody(reason: "the form has more than \(maximumParts) parts", path: nil)
            }
            let headLimit = min(body.count, position + Self.maximumHeaderSize)
            guard let headEnd = body[position..<headLimit].firstRange(of: separator) else {
                throw ServiceRequestError.malformedBody(
                    reason: "a form part's headers do not end within \(Self.maximumHeaderSize) bytes", path: nil)
            }
            let head = String(decoding: body[position..<headEnd.lowerBound], as: UTF8.self)
            guard let contentEnd = body[headEnd.upperBound...].firstRange(of: nextDelimiter) else {
                throw ServiceRequestError.malformedBody(
                    reason: "the form is not closed (its last boundary is missing)", path: nil)
            }
            parts.append(try Self.part(head: head, content: body[headEnd.upperBound..<contentEnd.lowerBound]))
            position = contentEnd.upperBound
        }
        self.parts = parts
    }

    /// A part from its headers: `Content-Disposition: form-data; name="…"[; filename="…"]`, and
    /// its `Content-Type` if any.
    private static func part(head: String, content: ArraySlice<UInt8>) throws -> Part {
        // Only the first Content-Disposition counts.
        var disposition: (name: String, filename: String?)??
        var contentType: String?
        for line in head.split(separator: "\r\n") {
            let field = line.split(separator: ":", maxSplits: 1)
            guard field.count == 2 else { continue }
            switch field[0].trimmingSpaces.lowercased() {
            case "content-disposition" where disposition == nil: disposition = .some(Self.disposition(field[1]))
            case "content-type": contentType = String(field[1].trimmingSpaces)
            default: break
            }
        }
        guard case .some(.some(let disposition)) = disposition else {
            throw ServiceRequestError.malformedBody(
                reason: "a form part has no Content-Disposition: form-data with a name", path: nil)
        }
        return Part(name: disposition.name, filename: disposition.filename, contentType: contentType, content: content)
    }

    /// `form-data; name="…"[; filename="…"]`'s name and file name; nil for anything else.
    private static func disposition(_ value: Substring) -> (name: String, filename: String?)? {
        var name: String?
        var filename: String?
        let items = value.split(separator: ";").map { $0.trimmingSpaces }
        guard items.first?.lowercased() == "form-data" else { return nil }
        for item in items.dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            var value = String(pair[1].trimmingSpaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            switch pair[0].trimmingSpaces.lowercased() {
            case "name": name = value
            case "filename": filename = value
            default: break
            }
        }
        return name.map { ($0, filename) }
    }
}
