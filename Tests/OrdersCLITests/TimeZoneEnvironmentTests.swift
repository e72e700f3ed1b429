import Foundation
import Testing

@testable import orders

/// `TZ` is pinned only to names Foundation reads as it reads `/etc/localtime` itself.
@Suite("The local zone pinned in TZ: Area/Location names and UTC, never an abbreviation")
struct TimeZoneEnvironmentTests {
    @Test(
        "zone names from /etc/localtime's target",
        arguments: [
            ("/usr/share/zoneinfo/Europe/Paris", "Europe/Paris"), ("/usr/share/zoneinfo/Etc/UTC", "Etc/UTC"),
            ("/usr/share/zoneinfo/UTC", "UTC"), ("../usr/share/zoneinfo/America/New_York", "America/New_York"),
            ("/usr/share/zoneinfo/America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
            ("/usr/share/zoneinfo/Etc/GMT+5", "Etc/GMT+5"), ("/usr/share/zoneinfo/EST", nil), ("/usr/share/zoneinfo/CET", nil),
            ("/usr/share/zoneinfo/", nil), ("/usr/share/zoneinfo/Europe/", nil), ("/usr/share/zoneinfo//Paris", nil),
            ("/etc/timezone-file", nil), ("/usr/share/zoneinfo/Europe/Par is", nil), ("/usr/share/zoneinfo/Europe/Zürich", nil),
            ("", nil),
        ] as [(String, String?)])
    func names(_ target: String, _ expected: String?) {
        #expect(TimeZoneEnvironment.zone(inLinkTarget: Array(target.utf8)) == expected)
    }

    @Test("a pinned name is the zone Foundation finds without TZ: the same identifier")
    func foundationAgrees() throws {
        guard let zone = TimeZoneEnvironment.zone(linkedFrom: "/etc/localtime") else { return }
        #expect(TimeZone(identifier: zone)?.identifier == zone)
    }
}
