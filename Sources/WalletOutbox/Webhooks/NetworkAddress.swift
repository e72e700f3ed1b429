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
    /// translated `::ffff:0:0:0/96`, compatible `::/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`)
    /// are judged by it.
    public var scope: Scope {
        let table = isIPv4 ? SpecialPurposeBlock.ipv4 : SpecialPurposeBlock.ipv6
        // The longest matching prefix decides (::1 inside ::/96, 64:ff9b:1::/48 beside 64:ff9b::/96).
        guard let block = table.filter({ $0.contains(bytes) }).max(by: { $0.length < $1.length }) else { return .global }
        switch block.verdict {
        case .scope(let scope): return scope
        case .carriesIPv4(let offset): return Self.scope(of: Array(bytes[offset..<offset + 4]))
        }
    }

    private static func scope(of ipv4: [UInt8]) -> Scope {
        NetworkAddress(bytes: ipv4)?.scope ?? .reserved
    }
}

/// One block of the IANA IPv4 and IPv6 Special-Purpose Address Registries (as of 2025: RFC 6890
/// and its updates, with RFC 9637's and RFC 9602's blocks), of the multicast ranges, and of the
/// deprecated forms that still route somewhere (site-local, IPv4-compatible, RFC 2765's
/// IPv4-translated). Every block is refused as a webhook target, including the few the
/// registries mark globally reachable — anycast services (AS112, PCP, TURN, AMT) that a webhook
/// has no business reaching — except the IPv6 forms that carry an IPv4 address, which are
/// judged by that address.
struct SpecialPurposeBlock: Sendable {
    enum Verdict: Sendable {
        case scope(NetworkAddress.Scope)
        /// The IPv4 address at this byte offset decides.
        case carriesIPv4(at: Int)
    }

    let prefix: [UInt8]
    let length: Int
    let verdict: Verdict

    /// `text` is `ADDRESS/LENGTH`.
    init(_ text: String, _ verdict: Verdict) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let address = NetworkAddress(String(parts[0])), let length = Int(parts[1]) else {
            preconditionFailure("a malformed block in the table: \(text)")
        }
        self.prefix = address.bytes
        self.length = length
        self.verdict = verdict
    }

    func contains(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == prefix.count else { return false }
        let whole = length / 8
        guard bytes[..<whole] == prefix[..<whole] else { return false }
        let rest = length % 8
        guard rest > 0 else { return true }
        let mask = UInt8(0xFF) << (8 - rest)
        return bytes[whole] & mask == prefix[whole] & mask
    }

    static let ipv4: [SpecialPurposeBlock] = [
        .init("0.0.0.0/8", .scope(.reserved)),  // "this network", and 0.0.0.0 reaches this host
        .init("10.0.0.0/8", .scope(.private)),
        .init("100.64.0.0/10", .scope(.private)),  // shared address space (carrier-grade NAT)
        .init("127.0.0.0/8", .scope(.loopback)),
        .init("169.254.0.0/16", .scope(.linkLocal)),  // cloud metadata at 169.254.169.254
        .init("172.16.0.0/12", .scope(.private)),
        .init("192.0.0.0/24", .scope(.reserved)),  // IETF protocol assignments (DS-Lite, PCP, TURN, NAT64 discovery)
        .init("192.0.2.0/24", .scope(.reserved)),  // documentation
        .init("192.31.196.0/24", .scope(.reserved)),  // AS112
        .init("192.52.193.0/24", .scope(.reserved)),  // AMT
        .init("192.88.99.0/24", .scope(.reserved)),  // 6to4 relay anycast (deprecated)
        .init("192.168.0.0/16", .scope(.private)),
        .init("192.175.48.0/24", .scope(.reserved)),  // AS112 direct delegation
        .init("198.18.0.0/15", .scope(.reserved)),  // benchmarking
        .init("198.51.100.0/24", .scope(.reserved)),  // documentation
        .init("203.0.113.0/24", .scope(.reserved)),  // documentation
        .init("224.0.0.0/4", .scope(.reserved)),  // multicast
        .init("240.0.0.0/4", .scope(.reserved)),  // reserved, and 255.255.255.255 broadcast
    ]

    static let ipv6: [SpecialPurposeBlock] = [
        .init("::/128", .scope(.reserved)),  // unspecified: reaches this host
        .init("::1/128", .scope(.loopback)),
        .init("::/96", .carriesIPv4(at: 12)),  // IPv4-compatible (deprecated)
        .init("::ffff:0:0/96", .carriesIPv4(at: 12)),  // IPv4-mapped
        .init("::ffff:0:0:0/96", .carriesIPv4(at: 12)),  // IPv4-translated (RFC 2765)
        .init("64:ff9b::/96", .carriesIPv4(at: 12)),  // NAT64 well-known prefix
        .init("64:ff9b:1::/48", .scope(.private)),  // NAT64 local use
        .init("100::/64", .scope(.reserved)),  // discard-only
        .init("100:0:0:1::/64", .scope(.reserved)),  // dummy prefix (RFC 9780)
        .init("2001::/23", .scope(.reserved)),  // IETF protocol assignments: Teredo, benchmarking, ORCHID, AMT, AS112, …
        .init("2001:db8::/32", .scope(.reserved)),  // documentation
        .init("2002::/16", .carriesIPv4(at: 2)),  // 6to4
        .init("2620:4f:8000::/48", .scope(.reserved)),  // AS112 direct delegation
        .init("3fff::/20", .scope(.reserved)),  // documentation (RFC 9637)
        .init("5f00::/16", .scope(.reserved)),  // segment routing SIDs (RFC 9602)
        .init("fc00::/7", .scope(.private)),  // unique local (cloud metadata at fd00:ec2::254)
        .init("fe80::/10", .scope(.linkLocal)),
        .init("fec0::/10", .scope(.private)),  // site-local (deprecated)
        .init("ff00::/8", .scope(.reserved)),  // multicast
    ]
}
