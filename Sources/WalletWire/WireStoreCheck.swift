/// `orders doctor --json`: whether the store file is sound, and SQLite's problems if not.
public struct WireStoreCheck: Codable, Sendable, Hashable {
    public var store: String
    public var sound: Bool
    /// `store.corrupt` when not sound, else null.
    public var code: String?
    public var problems: [String]

    public init(store: String, problems: [String]) {
        self.store = store
        sound = problems == ["ok"]
        code = sound ? nil : "store.corrupt"
        self.problems = sound ? [] : problems
    }

    private enum CodingKeys: String, CodingKey {
        case store, sound, code, problems
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(store, forKey: .store)
        try container.encode(sound, forKey: .sound)
        try container.encode(code, forKey: .code)
        try container.encode(problems, forKey: .problems)
    }
}
