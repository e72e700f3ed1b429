import Foundation
import Testing
import WalletPrimitives

@Suite("RFC 3339 timestamps and ISO 8601 durations")
struct TimestampAndDurationTests {
    @Test(
        "valid date-times",
        arguments: [
            ("2026-01-15T09:30:00Z", 1_768_469_400, 0), ("2026-01-15T10:30:00+01:00", 1_768_469_400, 0),
            ("2026-01-15t09:30:00z", 1_768_469_400, 0), ("2026-01-15T09:30:00.125Z", 1_768_469_400, 125_000_000),
            ("2024-02-29T00:00:00Z", 1_709_164_800, 0), ("1969-12-31T23:59:59.5Z", -1, 500_000_000),
            ("2026-01-15T09:30:00.123456789-05:30", 1_768_489_200, 123_456_789),
        ] as [(String, Int64, Int32)])
    func valid(_ text: String, _ seconds: Int64, _ nanoseconds: Int32) throws {
        let timestamp = try #require(RFC3339Timestamp(text))
        #expect(timestamp.secondsSinceEpoch == seconds)
        #expect(timestamp.nanoseconds == nanoseconds)
        #expect(timestamp.text == text)
    }

    @Test(
        "invalid date-times",
        arguments: [
            "2026-01-15T09:30:00", "2026-01-15 09:30:00Z", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-15T24:00:00Z",
            "2026-01-15T09:60:00Z", "2026-01-15T09:30:60Z", "2026-01-15T09:30:00.Z", "2026-01-15T09:30:00.1234567890Z",
            "2026-01-15T09:30:00+0100", "2026-01-15T09:30:00+01:00x", "26-01-15T09:30:00Z", "yesterday", "",
        ])
    func invalid(_ text: String) {
        #expect(RFC3339Timestamp(text) == nil)
    }

    @Test("comparison is exact: no floating point, offsets normalised")
    func comparison() throws {
        let a = try #require(RFC3339Timestamp("2026-01-15T09:30:00.1Z"))
        let b = try #require(RFC3339Timestamp("2026-01-15T09:30:00.100Z"))
        let c = try #require(RFC3339Timestamp("2026-01-15T09:30:00.100001Z"))
        let d = try #require(RFC3339Timestamp("2026-01-15T10:30:00.1+01:00"))
        #expect(a == b)
        #expect(a == d)
        #expect(a < c)
        #expect(Set([a, b, d]).count == 1)
        #expect(c.microsecondsSinceEpoch - a.microsecondsSinceEpoch == 1)
    }

    @Test("formatting a Date writes UTC with microseconds when needed")
    func formatting() {
        #expect(RFC3339Timestamp(Date(timeIntervalSince1970: 1_768_469_400)).text == "2026-01-15T09:30:00Z")
        #expect(RFC3339Timestamp(Date(timeIntervalSince1970: 1_768_469_400.25)).text == "2026-01-15T09:30:00.25Z")
        #expect(RFC3339Timestamp(Date(timeIntervalSince1970: -0.5)).text == "1969-12-31T23:59:59.5Z")
    }

    @Test("milliseconds are always written with three digits, so texts sort as their instants (issue 52, item 7)")
    func millisecondsWidth() {
        let texts = [1_768_469_409_000, 1_768_469_409_020, 1_768_469_409_023, 1_768_469_409_100, -500].map {
            RFC3339Timestamp(millisecondsSinceEpoch: Int64($0)).text
        }
        #expect(
            texts == [
                "2026-01-15T09:30:09.000Z", "2026-01-15T09:30:09.020Z", "2026-01-15T09:30:09.023Z",
                "2026-01-15T09:30:09.100Z", "1969-12-31T23:59:59.500Z",
            ])
        #expect(Array(texts.prefix(4)) == texts.prefix(4).sorted())
        #expect(RFC3339Timestamp(texts[1])?.millisecondsSinceEpoch == 1_768_469_409_020)
    }

    @Test("formatting agrees with ISO8601DateFormatter over 10,000 instants from 1583 to 9999")
    func formattingAgainstFoundation() {
        let reference = ISO8601DateFormatter()
        reference.formatOptions = [.withInternetDateTime]
        reference.timeZone = TimeZone(identifier: "UTC")
        var state: UInt64 = 3339
        for _ in 0..<10_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let seconds = Int64(state >> 11) % 253_402_300_800 - 12_212_553_600  // 1583-01-01 ..< 10000-01-01
            let text = RFC3339Timestamp(Date(timeIntervalSince1970: TimeInterval(seconds))).text
            #expect(text == reference.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))))
            #expect(RFC3339Timestamp(text)?.secondsSinceEpoch == seconds)
        }
        #expect(RFC3339Timestamp(Date(timeIntervalSince1970: 0.0625)).text == "1970-01-01T00:00:00.0625Z")
        #expect(RFC3339Timestamp(Date(timeIntervalSince1970: 0.12)).text == "1970-01-01T00:00:00.12Z")
    }

    @Test("Codable as the original text")
    func codable() throws {
        let timestamp = try #require(RFC3339Timestamp("2026-01-15T10:30:00.5+01:00"))
        let data = try JSONEncoder().encode([timestamp])
        #expect(String(decoding: data, as: UTF8.self) == #"["2026-01-15T10:30:00.5+01:00"]"#)
        #expect(try JSONDecoder().decode([RFC3339Timestamp].self, from: data)[0].text == timestamp.text)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([RFC3339Timestamp].self, from: Data(#"["x"]"#.utf8)) }
    }

    @Test(
        "valid durations",
        arguments: [
            ("P0Y0M0DT0H30M0S", 1800.0), ("PT2H", 7200), ("P1D", 86_400), ("P1W", 604_800), ("PT0.5S", 0.5), ("PT1M30S", 90),
            ("P1Y", 31_536_000), ("P1M", 2_592_000), ("PT1,5H", 5400),
        ])
    func validDurations(_ text: String, _ seconds: Double) throws {
        #expect(try #require(ISO8601Duration(text)).approximateSeconds == seconds)
    }

    @Test("invalid durations", arguments: ["", "P", "PT", "30M", "P1H", "PT1D", "P1.5DT1H", "P-1D", "PT1S2M", "P1DT", "P1Y1Y"])
    func invalidDurations(_ text: String) {
        #expect(ISO8601Duration(text) == nil)
    }
}
