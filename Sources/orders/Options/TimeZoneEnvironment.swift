import Foundation

/// Sets `TZ` to the zone `/etc/localtime` names, when `TZ` is unset.
///
/// libzip converts every entry's DOS date with `mktime(3)`, and with `TZ` unset glibc's `tzset`
/// stats `/etc/localtime` on every call to see whether it changed: three system calls per
/// archive, ~2 % of `orders verify`. With `TZ` set to the same zone, glibc reads it once.
/// The zone's name (not the file's path) keeps Foundation's `TimeZone.current` unchanged; when
/// `/etc/localtime` is not a link into a zoneinfo folder, nothing is set.
enum TimeZoneEnvironment {
    static func pinLocalZone() {
        guard getenv("TZ") == nil,
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
            let marker = target.range(of: "zoneinfo/")
        else { return }
        let zone = String(target[marker.upperBound...])
        guard !zone.isEmpty, TimeZone(identifier: zone) != nil else { return }
        setenv("TZ", zone, 0)
    }
}
