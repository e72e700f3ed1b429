import Foundation

/// Accounts one write of the access repository began (`shared`) or stopped (`withdrawn`)
/// sharing with a client: what the client's account history must show as inserted or deleted.
public struct AccountAccessChange: Sendable, Hashable {
    public var client: ClientIdentifier
    public var shared: [UUID]
    public var withdrawn: [UUID]
    public var time: Date

    public init(client: ClientIdentifier, shared: [UUID] = [], withdrawn: [UUID] = [], time: Date) {
        self.client = client
        self.shared = shared
        self.withdrawn = withdrawn
        self.time = time
    }

    public var isEmpty: Bool { shared.isEmpty && withdrawn.isEmpty }
}
