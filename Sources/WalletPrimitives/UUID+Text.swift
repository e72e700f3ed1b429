import Foundation

extension UUID {
    /// The UUID `text` spells in the 36-character form `uuidString` writes (hex digits in either
    /// case, hyphens after the 8th, 12th, 16th and 20th), or nil. Read without
    /// `UUID(uuidString:)`'s formatted scan (stores read thousands per planning pass), and
    /// stricter: that scan also takes some malformed text, a sign or a space for a digit.
    public init?(text: some StringProtocol) {
        var bytes:
            (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed =
            text.utf8.withContiguousStorageIfAvailable { Self.parse($0, into: &bytes) }
            ?? Array(text.utf8).withUnsafeBufferPointer { Self.parse($0, into: &bytes) }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }

    /// `uuidString`'s text (upper-case hex, hyphenated), written without a formatted print:
    /// stores write thousands of identifiers per import or planning pass.
    public var text: String {
        String(unsafeUninitializedCapacity: 36) { output in
            let digits: StaticString = "0123456789ABCDEF"
            var position = 0
            withUnsafeBytes(of: uuid) { bytes in
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        output[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    output[position] = digits.utf8Start[Int(byte >> 4)]
                    output[position + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    position += 2
                }
            }
            return position
        }
    }

    private static func parse(_ text: UnsafeBufferPointer<UInt8>, into uuid: inout uuid_t) -> Bool {
        guard text.count == 36 else { return false }
        return withUnsafeMutableBytes(of: &uuid) { output in
            var position = 0
            for index in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = hexValue(text[position]), let low = hexValue(text[position + 1]) else { return false }
                output[index] = high << 4 | low
                position += 2
            }
            return true
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }
}
