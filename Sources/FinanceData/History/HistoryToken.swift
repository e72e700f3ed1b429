import Foundation

/// Where a history stream left off (FinanceKit's `HistoryToken`): opaque, `Codable`, one per
/// stream. Persist the `newToken` of each batch after applying the batch, and pass it as `since`
/// to resume.
///
/// Encodes as one opaque string. A token is refused (``WalletCore/FinanceError/historyTokenInvalid``)
/// when it belongs to another stream, another store, a client whose access was revoked since, or
/// points into history that compaction removed.
public struct HistoryToken: Codable, Hashable, Sendable {
    struct Position: Codable, Hashable, Sendable {
        var version = 1
        /// The store's random identity.
        var generation: String
        var stream: String
        var cursor: Int64
        /// Changes up to this sequence are reflected.
        var sequence: Int64
        /// During a catch-up: the last id delivered, in id order. Nil once caught up.
        var catchUpAfter: String?
    }

    let position: Position

    init(position: Position) {
        self.position = position
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let data = Data(base64Encoded: text), let position = try? JSONDecoder().decode(Position.self, from: data) else {
            // Decoding must not fail for a well-formed but foreign token; validation refuses it later.
            position = Position(generation: "", stream: "", cursor: -1, sequence: -1)
            return
        }
        self.position = position
    }

    public func encode(to encoder: any Encoder) throws {
        let encoder2 = JSONEncoder()
        encoder2.outputFormatting = [.sortedKeys]
        var container = encoder.singleValueContainer()
        try container.encode(try encoder2.encode(position).base64EncodedString())
    }
}
