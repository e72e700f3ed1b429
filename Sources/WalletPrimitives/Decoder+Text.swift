/// Types written as one JSON string (timestamps, durations, enum case names) decode the same way.
extension Decoder {
    /// A single string value turned into `T` by `parse`. A string `parse` refuses is
    /// `DecodingError.dataCorrupted` saying `'value' is not <expected>`, the value clipped and
    /// escaped as ``MessageText`` does, so a huge value is never repeated whole.
    ///
    /// ```swift
    /// public init(from decoder: any Decoder) throws {
    ///     self = try decoder.decodeText(Self.init, expected: "an RFC 3339 date-time")
    /// }
    /// ```
    public func decodeText<T>(_ parse: (String) -> T?, expected: @autoclosure () -> String) throws -> T {
        let container = try singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(MessageText.quote(text)) is not \(expected())")
        }
        return value
    }
}
