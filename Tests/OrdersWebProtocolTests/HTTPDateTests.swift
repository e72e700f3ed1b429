import Foundation
import OrdersWebProtocol
import Testing

@Suite struct HTTPDateTests {
    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", Int64(784_111_777)),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
        ("Sun Nov  6 08:49:37 1994", 784_111_777),
        ("784111777", 784_111_777),
    ])
    func threeFormsAndEpochSeconds(text: String, seconds: Int64) {
        #expect(HTTPDate.parse(text) == seconds)
        #expect(HTTPDate.format(seconds) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    /// FuzzServiceRequest's first finding (FuzzTesting/Regressions/FuzzServiceRequest/
    /// http-date-year-0994): an asctime date in year 994 was written back as "994", which is not
    /// an IMF-fixdate and did not read back.
    @Test func yearsBelowOneThousandAreWrittenWithFourDigits() throws {
        let input = try Data(contentsOf: Self.regression("FuzzServiceRequest/http-date-year-0994")).dropFirst()
        let seconds = try #require(HTTPDate.parse(String(decoding: input, as: UTF8.self)))
        #expect(HTTPDate.format(seconds) == "Thu, 06 Nov 0994 08:49:37 GMT")  // proleptic Gregorian
        #expect(HTTPDate.parse(HTTPDate.format(seconds)) == seconds)
    }

    @Test(arguments: ["", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 32 Nov 1994 08:49:37 GMT", "1234567890123", "x"])
    func rejects(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    static func regression(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzTesting/Regressions/\(name)")
    }
}
