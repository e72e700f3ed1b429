import Foundation
import TestArchiveTable
import Testing

@testable import OrderTracking

/// The providers' bodies of Tests/Fixtures/tracking (written from their documentation, cited in
/// its README) and their signatures under `fixture-secret-1`, computed there by Python's `hmac`.
enum TrackingFixtures {
    static let secret = "fixture-secret-1"
    static let folder = TestArchiveTable.packageRoot.appendingPathComponent("Tests/Fixtures/tracking")

    static func body(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// file → (header, value), from signatures.tsv.
    static func signatures() throws -> [String: (header: String, value: String)] {
        let text = try String(contentsOf: folder.appendingPathComponent("signatures.tsv"), encoding: .utf8)
        var rows: [String: (String, String)] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t").map(String.init)
            rows[fields[0]] = (fields[1], fields[2])
        }
        return rows
    }

    /// The instant a body's AfterShip `ts` names, nil when it has none (each fixture's is a
    /// whole second).
    static func ts(of body: Data) -> Date? {
        let text = String(decoding: body, as: UTF8.self)
        guard let digits = text.range(of: #""ts":(\d+)"#, options: .regularExpression),
            let seconds = TimeInterval(text[digits].dropFirst(5))
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// An AfterShip `tracking_update` with `tag` and nothing else of interest.
    static func afterShip(tag: String, event: String = "tracking_update", number: String = "1Z999AA10123456784") -> Data {
        Data(
            #"{"event_id":"e-\#(tag)","event":"\#(event)","msg":{"tracking_number":"\#(number)","slug":"ups","tag":"\#(tag)","checkpoints":[]},"ts":1796625600}"#
                .utf8)
    }

    /// An EasyPost `tracker.updated` with tracker status `status`.
    static func easyPost(status: String) -> Data {
        Data(
            #"{"object":"Event","id":"evt_\#(status)","description":"tracker.updated","created_at":"2026-12-07T06:40:00Z","result":{"object":"Tracker","tracking_code":"9400100000000000000000","status":"\#(status)","carrier":"USPS","tracking_details":[]}}"#
                .utf8)
    }
}
