import Foundation
import OrderPackage
import Synchronization

/// APNs token authentication: an ES256 JWT (`kid` = key id, `iss` = team id, `iat`) signed with
/// the `.p8` key, reused for 50 minutes (APNs refuses tokens older than an hour and throttles
/// ones renewed more often than every 20 minutes).
final class APNsProviderToken: Sendable {
    let keyIdentifier: String
    let teamIdentifier: String
    private let signer: ES256Signer
    private let clock: @Sendable () -> Date
    private let cached = Mutex<(token: String, issuedAt: Date)?>(nil)

    static let lifetime: TimeInterval = 50 * 60

    init(p8: Data, keyIdentifier: String, teamIdentifier: String, clock: @escaping @Sendable () -> Date) throws(ES256SignerError)
    {
        signer = try ES256Signer(pem: p8)
        self.keyIdentifier = keyIdentifier
        self.teamIdentifier = teamIdentifier
        self.clock = clock
    }

    /// The current token, signing a new one when the cached one is due (or `renew`: APNs said
    /// `ExpiredProviderToken`).
    func current(renew: Bool = false) throws(ES256SignerError) -> String {
        let now = clock()
        if !renew, let cached = cached.withLock({ $0 }), now.timeIntervalSince(cached.issuedAt) < Self.lifetime {
            return cached.token
        }
        // JSONSerialization escapes what it must: the ids come from configuration, not code.
        let header = Self.base64URL(Self.json(["alg": "ES256", "kid": keyIdentifier]))
        let claims = Self.base64URL(Self.json(["iss": teamIdentifier, "iat": Int(now.timeIntervalSince1970)]))
        let input = header + "." + claims
        let token = input + "." + Self.base64URL(try signer.sign(Data(input.utf8)))
        cached.withLock { $0 = (token, now) }
        return token
    }

    private static func json(_ object: [String: any Sendable]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
