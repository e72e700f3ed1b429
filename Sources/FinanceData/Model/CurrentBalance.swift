/// Funds immediately available, funds from all booked transactions (pending excluded), or both.
///
/// Codable as `{"available": {…}}`, `{"booked": {…}}` or `{"available": {…}, "booked": {…}}`.
public enum CurrentBalance: Codable, Equatable, Hashable, Sendable {
    case available(Balance)
    case booked(Balance)
    case availableAndBooked(available: Balance, booked: Balance)

    public var available: Balance? {
        switch self {
        case .available(let balance), .availableAndBooked(let balance, _): balance
        case .booked: nil
        }
    }

    public var booked: Balance? {
        switch self {
        case .booked(let balance), .availableAndBooked(_, let balance): balance
        case .available: nil
        }
    }

    /// The current balance made of the parts present; nil when neither is.
    public init?(available: Balance?, booked: Balance?) {
        switch (available, booked) {
        case (let available?, let booked?): self = .availableAndBooked(available: available, booked: booked)
        case (let available?, nil): self = .available(available)
        case (nil, let booked?): self = .booked(booked)
        case (nil, nil): return nil
        }
    }

    private enum CodingKeys: String, CodingKey {
        case available, booked
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let available = try container.decodeIfPresent(Balance.self, forKey: .available)
        let booked = try container.decodeIfPresent(Balance.self, forKey: .booked)
        guard let value = CurrentBalance(available: available, booked: booked) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath, debugDescription: "a balance needs available, booked, or both"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(available, forKey: .available)
        try container.encodeIfPresent(booked, forKey: .booked)
    }
}
