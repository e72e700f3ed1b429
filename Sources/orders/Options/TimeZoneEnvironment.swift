import Foundation

/// Sets `TZ` to the zone `/etc/localtime` names, when `TZ` is unset.
///
/// libzip converts every entry's DOS date with `mktime(3)`, and with `TZ` unset glibc's `tzset`
/// stats `/etc/localtime` on every call to see whether it changed: three system calls per
/// archive, ~2 % of `orders verify`. With `TZ` set to the same zone, glibc reads it once.
///
/// Foundation's `TimeZone.current` stays what it was: with `TZ` unset it reads the same link
/// the same way (the name after `/usr/share/zoneinfo/`), and with `TZ` set it takes that name —
/// unless the name is one of its abbreviations (`EST`, `CET`: read as `America/New_York`,
/// `Europe/Paris`), so only `Area/Location` names and `UTC` are pinned. The name is not looked up
/// here: Foundation's lookup loads ICU's time-zone data, 2 ms of every command's start.
enum TimeZoneEnvironment {
    static let zoneFolder = "/usr/share/zoneinfo/"

    static func pinLocalZone() {
        guard getenv("TZ") == nil, let zone = zone(linkedFrom: "/etc/localtime") else { return }
        setenv("TZ", zone, 0)
    }

    /// The zone name the link at `path` gives, when it is one to pin.
    static func zone(linkedFrom path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, Int(PATH_MAX))
        guard length > 0 else { return nil }
        let target = buffer[..<length].map { UInt8(bitPattern: $0) }
        return zone(inLinkTarget: target)
    }

    /// The part of a link's target after `/usr/share/zoneinfo/`, when it is `UTC` or of the form
    /// `Area/Location` (letters, digits, `_+-` and `/`).
    static func zone(inLinkTarget target: [UInt8]) -> String? {
        guard let folder = target.firstRange(of: Array(zoneFolder.utf8)) else { return nil }
        let name = target[folder.upperBound...]
        let allowed = name.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "/"):
                true
            default:
                false
            }
        }
        guard allowed else { return nil }
        let text = String(decoding: name, as: UTF8.self)  // ASCII, by the check above
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard text == "UTC" || (parts.count >= 2 && parts.allSatisfy { !$0.isEmpty }) else { return nil }
        return text
    }
}
