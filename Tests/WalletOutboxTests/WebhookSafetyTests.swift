import FinanceData
import Foundation
import OrderPackage
import Testing
import WalletOutbox

@Suite("Webhooks: address scopes, the target check, signatures, retry policy")
struct WebhookSafetyTests {
    @Test(
        "addresses that lead back into the server's networks are told apart from public ones",
        arguments: [
            ("127.0.0.1", NetworkAddress.Scope.loopback), ("127.255.0.9", .loopback), ("::1", .loopback),
            ("10.0.0.1", .private), ("172.16.5.4", .private), ("172.31.255.255", .private), ("192.168.1.1", .private),
            ("100.64.0.1", .private), ("fd00:ec2::254", .private), ("fc00::1", .private), ("fec0::1", .private),
            ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal),
            ("0.0.0.0", .reserved), ("::", .reserved), ("224.0.0.1", .reserved), ("255.255.255.255", .reserved),
            ("192.0.2.7", .reserved), ("2001:db8::1", .reserved), ("ff02::1", .reserved), ("198.18.0.1", .reserved),
            ("::ffff:127.0.0.1", .loopback), ("::ffff:169.254.169.254", .linkLocal), ("64:ff9b::a00:1", .private),
            ("2002:7f00:1::", .loopback), ("::127.0.0.1", .loopback),
            ("93.184.216.34", .global), ("172.32.0.1", .global), ("2606:2800:220:1::1", .global), ("8.8.8.8", .global),
        ])
    func scopes(_ text: String, _ scope: NetworkAddress.Scope) throws {
        let address = try #require(NetworkAddress(text))
        #expect(address.scope == scope)
        #expect(NetworkAddress(address.description) == address)
    }

    /// Every block of IANA's IPv4 and IPv6 Special-Purpose Address Registries (and multicast), as
    /// the registries list them — written here again, not read from the code's table.
    static let specialPurposeBlocks = [
        "0.0.0.0/8", "0.0.0.0/32", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
        "192.0.0.0/24", "192.0.0.0/29", "192.0.0.8/32", "192.0.0.9/32", "192.0.0.10/32", "192.0.0.170/32", "192.0.0.171/32",
        "192.0.2.0/24", "192.31.196.0/24", "192.52.193.0/24", "192.88.99.0/24", "192.168.0.0/16", "192.175.48.0/24",
        "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "255.255.255.255/32", "224.0.0.0/4",
        "::1/128", "::/128", "64:ff9b:1::/48", "100::/64", "100:0:0:1::/64", "2001::/23", "2001::/32", "2001:1::1/128",
        "2001:1::2/128", "2001:1::3/128", "2001:2::/48", "2001:3::/32", "2001:4:112::/48", "2001:10::/28", "2001:20::/28",
        "2001:30::/28", "2001:db8::/32", "2620:4f:8000::/48", "3fff::/20", "5f00::/16", "fc00::/7", "fe80::/10", "ff00::/8",
    ]

    /// The first and the last address of `block` (`ADDRESS/LENGTH`).
    static func ends(of block: String) throws -> (first: NetworkAddress, last: NetworkAddress) {
        let parts = block.split(separator: "/")
        let start = try #require(NetworkAddress(String(parts[0])))
        let length = try #require(Int(parts[1]))
        var last = start.bytes
        for bit in length..<(last.count * 8) { last[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        return (start, try #require(NetworkAddress(bytes: last)))
    }

    @Test(
        "every special-purpose block of IANA's registries is refused, its first and last address alike",
        arguments: specialPurposeBlocks)
    func specialPurposeBlock(_ block: String) throws {
        let (first, last) = try Self.ends(of: block)
        #expect(first.scope != .global, "\(first) in \(block)")
        #expect(last.scope != .global, "\(last) in \(block)")
    }

    @Test(
        "IPv6 forms that carry an IPv4 address are judged by it: mapped, translated (RFC 2765), compatible, NAT64, 6to4",
        arguments: [
            ("::ffff:127.0.0.1", NetworkAddress.Scope.loopback), ("::ffff:0:127.0.0.1", .loopback),
            ("::ffff:0:7f00:1", .loopback), ("::ffff:0:169.254.169.254", .linkLocal), ("::ffff:0:10.1.2.3", .private),
            ("::ffff:0:8.8.8.8", .global), ("::10.0.0.1", .private), ("64:ff9b::127.0.0.1", .loopback),
            ("64:ff9b::8.8.8.8", .global), ("2002:a9fe:a9fe::", .linkLocal), ("2002:808:808::", .global),
        ])
    func carriedIPv4(_ text: String, _ scope: NetworkAddress.Scope) throws {
        #expect(try #require(NetworkAddress(text)).scope == scope, "\(text)")
    }

    @Test(
        "just outside the blocks is public",
        arguments: [
            "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0",
            "192.0.1.0", "198.17.255.255", "198.20.0.0", "223.255.255.255", "2001:200::1", "2001:db9::1",
            "2003::1", "2620:4f:8001::1", "fbff:ffff::1", "3fff:1000::1",
        ])
    func justOutside(_ text: String) throws {
        #expect(try #require(NetworkAddress(text)).scope == .global, "\(text)")
    }

    @Test("registration refuses loopback, private, link-local and metadata targets, and names that resolve to them")
    func targets() async throws {
        let targets = WebhookTargets()
        for text in [
            "https://127.0.0.1/hook", "https://[::1]/hook", "https://169.254.169.254/latest/meta-data",
            "https://10.0.0.8/hook", "https://[fd00:ec2::254]/", "https://localhost/hook", "https://0.0.0.0/hook",
            "https://[::ffff:127.0.0.1]/hook", "https://[::ffff:0:127.0.0.1]/", "https://[64:ff9b::169.254.169.254]/",
            "https://[2001:2::1]/", "https://[3fff::1]/",
        ] {
            await #expect(throws: BackgroundDeliveryError.self, "\(text)") { try await targets.check(try WebhookURL(text)) }
        }
        await #expect(throws: BackgroundDeliveryError.invalidURL("the scheme must be https")) {
            try await HTTPSOnlyTargetPolicy().check(try WebhookURL("http://hooks.example/"))
        }
        let unresolved = WebhookTargets(resolver: HostResolver { _ in [] })
        await #expect(throws: BackgroundDeliveryError.urlNotAllowed("nowhere.invalid does not resolve")) {
            try await unresolved.check(try WebhookURL("https://nowhere.invalid/"))
        }
        // Allowed by the operator: private and loopback, http only to loopback.
        let allowing = WebhookTargets(allowsPrivateAddresses: true)
        #expect(try await allowing.address(of: WebhookURL("http://127.0.0.1:9/hook")).description == "127.0.0.1")
        try await allowing.check(try WebhookURL("https://10.0.0.8/hook"))
        await #expect(throws: BackgroundDeliveryError.self) { try await allowing.check(try WebhookURL("http://10.0.0.8/hook")) }
        await #expect(throws: BackgroundDeliveryError.self) { try await allowing.check(try WebhookURL("https://0.0.0.0/")) }
        let publicOnly = WebhookTargets(resolver: HostResolver { _ in [NetworkAddress("93.184.216.34")!] })
        #expect(try await publicOnly.address(of: WebhookURL("https://hooks.example/")).description == "93.184.216.34")
    }

    @Test("Wallet-Signature: HMAC-SHA256 over t.body, checked in constant time within five minutes")
    func signatures() throws {
        // RFC 4231 test case 2 for the primitive.
        #expect(
            HMACSHA256.hex(key: Array("Jefe".utf8), message: Data("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let body = Data(#"{"deliveryID":"D","occurredAt":"2027-01-15T08:00:00Z","types":["transactions"]}"#.utf8)
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let header = WebhookSignature.value(secret: "wds_secret", time: time, body: body)
        let expected = HMACSHA256.hex(key: Array("wds_secret".utf8), message: Data("1800000000.".utf8) + body)
        #expect(header == "t=1800000000,v1=\(expected)")
        #expect(WebhookSignature.isValid(header, secret: "wds_secret", body: body, now: time.addingTimeInterval(299)))
        #expect(!WebhookSignature.isValid(header, secret: "wds_secret", body: body, now: time.addingTimeInterval(301)))
        #expect(!WebhookSignature.isValid(header, secret: "wds_other", body: body, now: time))
        #expect(!WebhookSignature.isValid(header, secret: "wds_secret", body: body + Data(" ".utf8), now: time))
        #expect(WebhookSignature.isValid("v1=00,\(header),v0=x", secret: "wds_secret", body: body, now: time))
        #expect(!WebhookSignature.isValid("t=1800000000", secret: "wds_secret", body: body, now: time))
        #expect(!WebhookSignature.isValid("", secret: "wds_secret", body: body, now: time))
    }

    @Test("Standard Webhooks: the specification's own vector; headers a receiver verifies; whsec_ is the same key")
    func standardWebhooks() throws {
        // standardwebhooks.com's example: whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw.
        let key = try #require(Data(base64Encoded: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        #expect(
            StandardWebhookSignature.signature(
                key: Array(key), id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
                body: Data(#"{"test": 2432232314}"#.utf8)) == "g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        let body = Data(#"{"deliveryID":"D","occurredAt":"2027-01-15T08:00:00Z","types":["transactions"]}"#.utf8)
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let headers = StandardWebhookSignature.headers(secret: "wds_secret", id: "D", time: time, body: body)
        #expect(headers.map(\.name) == ["webhook-id", "webhook-timestamp", "webhook-signature"])
        #expect(headers[0].value == "D" && headers[1].value == "1800000000" && headers[2].value.hasPrefix("v1,"))
        let valid = { (secret: String, now: Date) in
            StandardWebhookSignature.isValid(
                id: "D", timestampHeader: headers[1].value, signatureHeader: "v1,x " + headers[2].value, secret: secret,
                body: body, now: now)
        }
        #expect(valid("wds_secret", time.addingTimeInterval(299)))
        #expect(!valid("wds_secret", time.addingTimeInterval(301)))
        #expect(!valid("wds_other", time))
        // The whsec_ form holds the same key: the Wallet secret's bytes.
        let standard = DeliverySecret.standardWebhooksForm(of: "wds_secret")
        let decoded = try #require(Data(base64Encoded: String(standard.dropFirst("whsec_".count))))
        #expect(standard.hasPrefix("whsec_") && Array(decoded) == Array("wds_secret".utf8))
    }

    @Test("backoff doubles with up to 20 % jitter to its cap; limits by attempts or by age")
    func retryPolicy() {
        let policy = RetryPolicy.webhooks
        for attempts in 1...30 {
            let delay = policy.delay(afterAttempts: attempts)
            let base = min(30 * pow(2, Double(attempts - 1)), 86_400)
            #expect(delay <= base && delay >= base * 0.8, "attempt \(attempts): \(delay)")
        }
        #expect(!policy.givesUp(afterAttempts: 1_000, age: 71 * 3_600))
        #expect(policy.givesUp(afterAttempts: 1, age: 72 * 3_600))
        #expect(RetryPolicy.pushes.givesUp(afterAttempts: 12, age: 0))
        #expect(!RetryPolicy.pushes.givesUp(afterAttempts: 11, age: 1_000_000))
    }
}
