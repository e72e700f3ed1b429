/// The zip features this reader implements, by the fields that announce them (APPNOTE 4.4.3,
/// 4.4.4), and a refusal for any other.
///
/// A reader that skips what it does not implement reads another archive than one that refuses
/// it: Info-ZIP's `unzip` skips an entry whose version needed to extract is above its own (4.6)
/// and Python's `zipfile` refuses the whole archive above 6.3, so an archive whose `signature`
/// entry asks for "version 14.8" would verify here and be read without its signature elsewhere.
/// So a field that asks for more than this reader implements is refused, naming the entry and the
/// field, in the central directory and in local headers alike.
enum ZipFeatures {
    /// Deflate (2.0) and ZIP64 (4.5): the highest version needed to extract this reader
    /// implements. Only the low byte counts; the high byte is not part of the version (Info-ZIP
    /// and Python ignore it too).
    static let highestVersion: UInt16 = 45

    /// The general-purpose flag bits that change nothing this reader does not implement: 0
    /// (encryption, which the archive check refuses by name), 1–2 (deflate's compression
    /// options), 3 (sizes in a data descriptor), 11 (UTF-8 names).
    static let understoodFlags: UInt16 = 0b0000_1000_0000_1111

    /// What each other bit means.
    static func meaning(ofFlagBit bit: Int) -> String {
        switch bit {
        case 4: "reserved (enhanced deflating)"
        case 5: "compressed patched data"
        case 6: "strong encryption"
        case 12: "reserved (enhanced compression)"
        case 13: "masked local header values, for central directory encryption"
        default: "unused"
        }
    }

    /// The refusal for a version needed to extract above ``highestVersion``, or nil.
    static func versionProblem(_ version: UInt16, in place: String) -> String? {
        let needed = version & 0xFF
        guard needed > highestVersion else { return nil }
        return "the \(place) needs version \(needed / 10).\(needed % 10) to extract; "
            + "this reader implements up to \(highestVersion / 10).\(highestVersion % 10) (deflate and ZIP64)"
    }

    /// The refusal for flag bits outside ``understoodFlags``, or nil.
    static func flagProblem(_ flags: UInt16, in place: String) -> String? {
        let others = flags & ~understoodFlags
        guard others != 0 else { return nil }
        let bits = (0..<16).filter { others & (1 << $0) != 0 }
        let named = bits.map { "bit \($0) (\(meaning(ofFlagBit: $0)))" }.joined(separator: ", ")
        return "the \(place) sets general-purpose flag \(bits.count == 1 ? "" : "s ")\(named)"
    }
}
