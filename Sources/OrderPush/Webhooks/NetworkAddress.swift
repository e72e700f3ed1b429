import Foundation

/// An IPv4 or IPv6 address as bytes, and what kind of network it is on: the check that keeps
/// background deliveries away from the server's own network (server-side request forgery).
public struct NetworkAddress: Sendable, Hashable, CustomStringConvertible {
    /// Where an address leads, for the delivery check.
    public enum Scope: String, Sendable, Hashable {
        /// The public internet.
        case global
        /// This host: `127.0.0.0/8`, `::1`.
        case loopback
        /// A private network: RFC 1918, shared address space (`100.64.0.0/10`), unique local
        /// `fc00::/7` (where cloud metadata services also answer, e.g. `fd00:ec2::254`),
        /// site-local `fec0::/10`.
        case `private`
        /// The link: `169.254.0.0/16` (cloud metadata at `169.254.169.254`), `fe80::/10`.
        case linkLocal
        /// Not a destination: unspecified (`0.0.0.0/8`, `::`, which reach this host), multicast,
        /// broadcast, documentation, benchmarking and other reserved ranges.
        case reserved
    }

    /// 4 or 16 bytes, network order.
    public let bytes: [UInt8]

    /// nil unless `bytes` holds 4 or 16 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// An address in text, dotted IPv4 or IPv6; nil otherwise.
    public init?(_ text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The address in its usual text form (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isIPv4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard written != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Where the address leads. IPv6 addresses that carry an IPv4 one (mapped `::ffff:0:0/96`,
    /// compatible `::/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by it.
    public var scope: Scope {
        isIPv4 ? Self.scope(ipv4: bytes) : Self.scope(ipv6: bytes)
    }

    private static func scope(ipv4 b: [UInt8]) -> Scope {
        switch (b[0], b[1], b[2]) {
        case (127, _, _): .loopback
        case (10, _, _), (172, 16...31, _), (192, 168, _), (100, 64...127, _): .private
        case (169, 254, _): .linkLocal
        case (0, _, _), (224...255, _, _), (192, 0, 0), (192, 0, 2), (198, 51, 100), (203, 0, 113), (198, 18...19, _),
            (192, 88, 99):
            .reserved
        default: .global
        }
    }

    private static func scope(ipv6 b: [UInt8]) -> Scope {
        let first10Zero = b[0..<10].allSatisfy { $0 == 0 }
        if b.allSatisfy({ $0 == 0 }) { return .reserved }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return .loopback }
        if first10Zero && b[10] == 0xFF && b[11] == 0xFF { return scope(ipv4: Array(b[12..<16])) }
        if first10Zero && b[10] == 0 && b[11] == 0 { return scope(ipv4: Array(b[12..<16])) }
        if b[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return scope(ipv4: Array(b[12..<16])) }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B && b[4] == 0 && b[5] == 1 { return .private }
        if b[0] == 0x20 && b[1] == 0x02 { return scope(ipv4: Array(b[2..<6])) }
        if b[0] & 0xFE == 0xFC { return .private }
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return .linkLocal }
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return .private }
        if b[0] == 0xFF { return .reserved }
        // Documentation (2001:db8::/32), Teredo (2001::/32), discard (100::/64).
        if b[0] == 0x20 && b[1] == 0x01 && ((b[2] == 0x0D && b[3] == 0xB8) || (b[2] == 0 && b[3] == 0)) { return .reserved }
        if b[0] == 0x01 && b[1] == 0x00 && b[2..<8].allSatisfy({ $0 == 0 }) { return .reserved }
        return .global
    }
}
