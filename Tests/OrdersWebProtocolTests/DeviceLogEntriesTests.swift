import Foundation
import OrdersWebProtocol
import Testing
import WalletPrimitives

@Suite("Device log entries become one bounded, unambiguous piece of a log line")
struct DeviceLogEntriesTests {
    @Test("each entry is a JSON string: quotes, backslashes and controls cannot run entries together")
    func quoted() {
        let summary = DeviceLogEntries.summary(of: ["a", #"say "hi""#, "two\nlines"], maximumLength: 2048)
        #expect(summary == #"device log, 3 entries: "a", "say \"hi\"", "two\nlines""#)
        #expect(DeviceLogEntries.summary(of: ["only"], maximumLength: 2048) == #"device log, 1 entry: "only""#)
        #expect(DeviceLogEntries.summary(of: [], maximumLength: 2048) == "device log, 0 entries:")
    }

    @Test("a body of any size gives at most the limit, and says how many entries did not fit")
    func bounded() {
        let entries = Array(repeating: String(repeating: "x", count: 600), count: 100)
        for limit in [64, 500, 2048] {
            let summary = DeviceLogEntries.summary(of: entries, maximumLength: limit)
            #expect(summary.utf8.count <= limit, "\(summary.utf8.count) bytes for a limit of \(limit)")
            #expect(summary.hasSuffix("more not written)"), "\(summary.suffix(40))")
        }
        // 100 empty strings, the 400-byte amplifier: one short line.
        let empty = DeviceLogEntries.summary(of: Array(repeating: "", count: 100), maximumLength: 2048)
        #expect(empty.utf8.count < 600)
    }

    @Test("an entry cut short is cut between characters")
    func cutBetweenCharacters() {
        let summary = DeviceLogEntries.summary(of: [String(repeating: "é€😀", count: 200)], maximumLength: 100)
        #expect(summary.utf8.count <= 100)
        #expect(summary.unicodeScalars.allSatisfy { $0 != "\u{FFFD}" }, "no broken character: \(summary)")
    }
}

@Suite("LogText: what a log line never holds raw")
struct LogTextTests {
    @Test(
        "line ends, terminal controls, separators and bidirectional controls are escaped",
        arguments: [
            ("a\nb", #"a\u{A}b"#), ("a\r\nb", #"a\u{D}\u{A}b"#), ("\u{1B}[31m", #"\u{1B}[31m"#), ("\u{7F}", #"\u{7F}"#),
            ("\u{85}", #"\u{85}"#), ("\u{2028}", #"\u{2028}"#), ("\u{2029}", #"\u{2029}"#), ("x\u{202E}y", #"x\u{202E}y"#),
            ("\u{2066}", #"\u{2066}"#), ("\u{200F}", #"\u{200F}"#), ("\u{61C}", #"\u{61C}"#), (#"\u{A}"#, #"\\u{A}"#),
            ("\u{0}", #"\u{0}"#), ("plain text", "plain text"), ("ünïcode ✓", "ünïcode ✓"),
        ])
    func escaped(_ input: String, _ expected: String) {
        #expect(LogText.escaped(input) == expected)
    }

    @Test("a long line is cut to the limit between characters, and says so")
    func clipped() {
        let line = String(repeating: "😀", count: 1000)
        let cut = LogText.clipped(line, toBytes: 101)
        #expect(cut.utf8.count <= 101 && cut.hasSuffix("(4000 bytes, cut)"))
        #expect(LogText.clipped("short", toBytes: 101) == "short")
    }
}
