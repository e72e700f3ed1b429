import FinanceData
import Foundation

/// Where background deliveries may go, as `orders serve` decides it: the URL's host resolved,
/// and **every** address it resolves to on the public internet — no loopback, private,
/// link-local (cloud metadata at `169.254.169.254`), unique-local or reserved address — unless
/// the operator allows private addresses (`--allow-private-webhooks`, for a receiver on the
/// same network, and for tests). `http` is refused but for a loopback host when private
/// addresses are allowed.
///
/// Checked when an endpoint is registered and again before every delivery, which then connects
/// to the address the check approved (a name that resolves elsewhere a moment later is not
/// followed there). Redirects are never followed (``HTTPWebhookSender``).
public struct WebhookTargets: DeliveryTargetPolicy {
    public var allowsPrivateAddresses: Bool
    let resolver: HostResolver

    public init(allowsPrivateAddresses: Bool = false, resolver: HostResolver = HostResolver()) {
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.resolver = resolver
    }

    public func check(_ url: WebhookURL) async throws(BackgroundDeliveryError) {
        _ = try await address(of: url)
    }

    /// The address to connect to for `url`, every one of the host's addresses checked.
    public func address(of url: WebhookURL) async throws(BackgroundDeliveryError) -> NetworkAddress {
        let addresses = await resolver.addresses(of: url.host)
        guard let first = addresses.first else { throw .urlNotAllowed("\(url.host) does not resolve") }
        for address in addresses where !isAllowed(address.scope) {
            let named = NetworkAddress(url.host) == nil ? "\(url.host) resolves to \(address)" : "\(address)"
            throw .urlNotAllowed("\(named), a \(Self.words(address.scope)) address")
        }
        if !url.isSecure {
            guard allowsPrivateAddresses, addresses.allSatisfy({ $0.scope == .loopback }) else {
                throw .invalidURL("the scheme must be https (http only to loopback, where private addresses are allowed)")
            }
        }
        return first
    }

    private func isAllowed(_ scope: NetworkAddress.Scope) -> Bool {
        switch scope {
        case .global: true
        case .loopback, .private, .linkLocal: allowsPrivateAddresses
        case .reserved: false
        }
    }

    private static func words(_ scope: NetworkAddress.Scope) -> String {
        switch scope {
        case .global: "public"
        case .loopback: "loopback"
        case .private: "private-network"
        case .linkLocal: "link-local"
        case .reserved: "reserved"
        }
    }
}
