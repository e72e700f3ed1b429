import Foundation

/// How sign-in attempts are limited, so that guessing the owner's password gains little and
/// nobody but the owner can keep the owner out.
///
/// An attempt is counted when it is admitted — before its password is checked, so that attempts
/// made at once cannot pass the count together — in the store, shared by every instance:
///
/// - From a browser that has signed in before (it holds a **trusted-device** cookie): only that
///   device's attempts count, ``perDevice`` per ``window``; past them the device is forgotten and
///   the browser is like any other. Such attempts never wait behind strangers' and are never
///   refused for what other addresses did.
/// - From any other browser: ``perAddress`` attempts per client address and ``perNetwork`` per
///   network (the address's `/24`, or `/64` for IPv6) per ``window``; past either, refused without
///   the password being checked, for that address or network only. There is no total past which
///   everyone is refused: past ``slowdownAfter`` such attempts in the window from everywhere, each
///   check first waits ``slowdownStep`` more per attempt beyond, up to ``maximumSlowdown`` —
///   sign-in from a new browser gets slower during a flood; the right password is still checked.
///
/// `orders owner unlock` clears every count; `orders owner set-password` also forgets every
/// trusted device.
public struct SignInThrottle: Sendable, Hashable {
    public var window: TimeInterval
    public var perAddress: Int
    public var perNetwork: Int
    public var perDevice: Int
    public var slowdownAfter: Int
    public var slowdownStep: TimeInterval
    public var maximumSlowdown: TimeInterval
    /// How long a trusted-device cookie lasts unused.
    public var deviceLifetime: TimeInterval

    public init(
        window: TimeInterval = 15 * 60, perAddress: Int = 5, perNetwork: Int = 20, perDevice: Int = 5,
        slowdownAfter: Int = 50, slowdownStep: TimeInterval = 0.1, maximumSlowdown: TimeInterval = 5,
        deviceLifetime: TimeInterval = 365 * 86_400
    ) {
        self.window = window
        self.perAddress = max(1, perAddress)
        self.perNetwork = max(1, perNetwork)
        self.perDevice = max(1, perDevice)
        self.slowdownAfter = max(0, slowdownAfter)
        self.slowdownStep = max(0, slowdownStep)
        self.maximumSlowdown = max(0, maximumSlowdown)
        self.deviceLifetime = deviceLifetime
    }

    /// How long a check waits when `recent` attempts from browsers that are not trusted devices
    /// were admitted in the window.
    public func slowdown(afterRecentAttempts recent: Int) -> TimeInterval {
        min(maximumSlowdown, Double(max(0, recent - slowdownAfter)) * slowdownStep)
    }
}

/// Who is attempting to sign in: the client's address, its network, and the digest of its
/// trusted-device cookie when it presented a known one.
public struct SignInAttempt: Sendable, Hashable {
    public var address: String
    public var network: String
    public var device: String?
    public var at: Date

    public init(address: String, device: String?, at: Date) {
        self.address = address
        self.network = SignInAttempt.network(of: address)
        self.device = device
        self.at = at
    }

    /// The `/24` of an IPv4 address (`203.0.113.0/24`, also as `::ffff:203.0.113.9`), the `/64`
    /// of an IPv6 one (`2001:db8:1:2::/64`); anything else (a test's name, a Unix socket) is its
    /// own network.
    public static func network(of address: String) -> String {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return "\(bytes[0]).\(bytes[1]).\(bytes[2]).0/24"
        }
        if inet_pton(AF_INET6, address, &v6) == 1 {
            var bytes = withUnsafeBytes(of: &v6) { Array($0) }
            // An IPv4 client of a dual-stack listener (::ffff:a.b.c.d): its IPv4 network.
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return "\(bytes[12]).\(bytes[13]).\(bytes[14]).0/24"
            }
            for index in 8..<16 { bytes[index] = 0 }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let text = bytes.withUnsafeBytes { inet_ntop(AF_INET6, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
            guard text != nil else { return address }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/64"
        }
        return address
    }
}

/// What the store said to an attempt.
public enum SignInAdmission: Sendable, Hashable {
    /// Counted; `recentUntrusted` attempts from browsers that are not trusted devices were
    /// admitted in the window, this one included when it is one.
    case admitted(recentUntrusted: Int)
    /// Not counted and not to be checked: the limit of its address, network or device is reached
    /// until this instant.
    case refused(until: Date)
}
