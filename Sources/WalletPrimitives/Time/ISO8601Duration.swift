/// An ISO 8601-1 duration as written in `order.json`, e.g. `P0Y0M0DT0H30M0S` or `PT2H`.
///
/// Components may be any non-negative number; only the last one written may have a fraction.
public struct ISO8601Duration: Sendable, Hashable, Codable, CustomStringConvertible {
    public let text: String
    public let years: Double
    public let months: Double
    public let weeks: Double
    public let days: Double
    public let hours: Double
    public let minutes: Double
    public let seconds: Double

    public init?(_ text: String) {
        var values: [Character: Double] = [:]
        var remaining = Substring(text)
        guard remaining.first == "P" else { return nil }
        remaining.removeFirst()
        var inTime = false
        var sawFraction = false
        var sawAny = false
        var order = "YMWD"[...]
        while let next = remaining.first {
            if next == "T" {
                guard !inTime else { return nil }
                inTime = true
                order = "HMS"[...]
                remaining.removeFirst()
                guard !remaining.isEmpty else { return nil }
                continue
            }
            let digits = remaining.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
            guard !digits.isEmpty, !sawFraction, let value = Double(digits.replacingOccurrences(of: ",", with: ".")),
                value >= 0
            else { return nil }
            sawFraction = digits.contains(".") || digits.contains(",")
            remaining.removeFirst(digits.count)
            guard let designator = remaining.first, let position = order.firstIndex(of: designator) else { return nil }
            order = order[order.index(after: position)...]
            remaining.removeFirst()
            values[inTime && designator == "M" ? "m" : designator] = value
            sawAny = true
        }
        guard sawAny else { return nil }
        self.text = text
        years = values["Y"] ?? 0
        months = values["M"] ?? 0
        weeks = values["W"] ?? 0
        days = values["D"] ?? 0
        hours = values["H"] ?? 0
        minutes = values["m"] ?? 0
        seconds = values["S"] ?? 0
    }

    /// Length in seconds, counting a year as 365 days and a month as 30.
    public var approximateSeconds: Double {
        ((years * 365 + months * 30 + weeks * 7 + days) * 24 + hours) * 3600 + minutes * 60 + seconds
    }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeText(Self.init, expected: "an ISO 8601 duration")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
