import Foundation
import NIOPosix

/// Resolves a host name to its addresses: by default with the system resolver (`getaddrinfo`),
/// on NIO's thread pool so that a slow lookup never blocks Swift's cooperative threads. An
/// address literal comes back as itself.
public struct HostResolver: Sendable {
    private let resolve: @Sendable (String) async -> [NetworkAddress]

    /// The system resolver.
    public init() {
        resolve = { host in (try? await NIOThreadPool.singleton.runIfActive { Self.lookUp(host) }) ?? [] }
    }

    /// Names resolved by `resolve` (tests: a name that resolves elsewhere the next time).
    public init(_ resolve: @escaping @Sendable (String) async -> [NetworkAddress]) {
        self.resolve = resolve
    }

    /// Every address of `host`, in the resolver's order; empty when it does not resolve.
    public func addresses(of host: String) async -> [NetworkAddress] {
        if let literal = NetworkAddress(host) { return [literal] }
        return await resolve(host)
    }

    private static func lookUp(_ host: String) -> [NetworkAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [NetworkAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr {
                switch Int32(current.pointee.ai_family) {
                case AF_INET:
                    var address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    if let parsed = NetworkAddress(bytes: withUnsafeBytes(of: &address) { Array($0) }) {
                        addresses.append(parsed)
                    }
                case AF_INET6:
                    var address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    if let parsed = NetworkAddress(bytes: withUnsafeBytes(of: &address) { Array($0) }) {
                        addresses.append(parsed)
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        var seen: Set<NetworkAddress> = []
        return addresses.filter { seen.insert($0).inserted }
    }
}
