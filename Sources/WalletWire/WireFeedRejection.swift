/// A financial-data feed that was not imported: `{"feed": …, "imported": false, "error": …}`.
public struct WireFeedRejection: Codable, Sendable, Hashable {
    public var feed: String
    public var imported: Bool
    public var error: WireIssue

    public init(feed: String, error: any Error) {
        self.feed = feed
        imported = false
        self.error = WireIssue(error: error)
    }
}
