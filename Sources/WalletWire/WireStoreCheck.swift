/// `orders doctor --json`: whether the store file is sound, and SQLite's problems if not.
public struct WireStoreCheck: Codable, Sendable, Hashable {
    public var store: String
    public var sound: Bool
    /// `store.corrupt` when not sound, else null.
    @Nullable public var code: String?
    public var problems: [String]

    public init(store: String, problems: [String]) {
        self.store = store
        sound = problems == ["ok"]
        code = sound ? nil : "store.corrupt"
        self.problems = sound ? [] : problems
    }
}
