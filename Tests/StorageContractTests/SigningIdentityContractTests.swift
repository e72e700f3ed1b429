import Foundation
import OrderPackage
import OrderStorage
import StorageContract
import Testing

/// Signing identities as every backend keeps them: one per order type, the key's location kept
/// exactly (every case of it) and nothing else about the key.
@Suite("Contract: signing identities")
struct SigningIdentityContractTests {
    static func identity(_ type: String, key: SigningKeyLocation, at seconds: TimeInterval) -> StoredSigningIdentity {
        StoredSigningIdentity(
            orderTypeIdentifier: type, teamIdentifier: "ABCDE12345",
            certificatePEM: "-----BEGIN CERTIFICATE-----\n\(type)\n-----END CERTIFICATE-----\n",
            intermediatesPEM: type.hasSuffix("b") ? "" : "-----BEGIN CERTIFICATE-----\nwwdr\n-----END CERTIFICATE-----\n",
            certificateSHA256: String(repeating: "ab", count: 32), key: key,
            notAfter: Date(timeIntervalSince1970: 2_900_000_000), addedAt: Date(timeIntervalSince1970: seconds))
    }

    @Test("put, replace, list by type, remove; key locations round-trip", arguments: BackendFactory.all)
    func putListRemove(_ factory: BackendFactory) async throws {
        let identities = try await factory.make().signingIdentities
        let a = Self.identity(
            "order.com.a", key: .file(path: "/etc/orders/a.key", passphrase: .environment(name: "A_PASSPHRASE")),
            at: 1_790_000_000)
        let b = Self.identity(
            "order.com.b",
            key: .pkcs11(
                uri: "pkcs11:token=shop;object=b", module: "/usr/lib/softhsm/libsofthsm2.so", pin: .file(path: "/run/pin")),
            at: 1_790_000_100)
        let c = Self.identity("order.com.c", key: .pkcs11(uri: "pkcs11:object=c", module: nil, pin: nil), at: 1_790_000_200)
        #expect(try await identities.identities() == [])
        for identity in [c, a, b] { #expect(try await identities.put(identity) == false) }
        #expect(try await identities.identities() == [a, b, c])
        #expect(try await identities.identity(orderTypeIdentifier: "order.com.b") == b)
        #expect(try await identities.identity(orderTypeIdentifier: "order.com.d") == nil)

        var rotated = a
        rotated.key = .file(path: "/etc/orders/a-2027.p12", passphrase: nil)
        rotated.addedAt = Date(timeIntervalSince1970: 1_790_000_300)
        #expect(try await identities.put(rotated) == true)
        #expect(try await identities.identities() == [rotated, b, c])

        #expect(try await identities.remove(orderTypeIdentifier: "order.com.b"))
        #expect(try await identities.remove(orderTypeIdentifier: "order.com.b") == false)
        #expect(try await identities.remove(orderTypeIdentifier: "order.com.\u{0}") == false)
        #expect(try await identities.identities() == [rotated, c])
    }

    @Test(
        "a staged identity beside the active one: listed apart, activated only as checked, in one unit of work; reports kept per instance and revision",
        arguments: BackendFactory.all)
    func stagedAndReports(_ factory: BackendFactory) async throws {
        let identities = try await factory.make().signingIdentities
        let active = Self.identity("order.com.a", key: .file(path: "/etc/orders/a.key", passphrase: nil), at: 1_790_000_000)
        var next = Self.identity(
            "order.com.a", key: .file(path: "/etc/orders/a-2027.p12", passphrase: .environment(name: "A_2027")),
            at: 1_790_000_100)
        #expect(try await identities.put(active) == false)
        #expect(try await identities.stage(next) == false)
        #expect(try await identities.identities() == [active], "staging changes nothing that signs")
        #expect(try await identities.stagedIdentities() == [next])
        #expect(active.revision != next.revision, "the same certificate with its key moved is another revision")

        let at = Date(timeIntervalSince1970: 1_790_000_200)
        let reports = [
            SigningIdentityReport(
                instance: "a-1", orderTypeIdentifier: "order.com.a", revision: next.revision, loaded: true, reason: nil,
                reportedAt: at),
            SigningIdentityReport(
                instance: "b-2", orderTypeIdentifier: "order.com.a", revision: next.revision, loaded: false,
                reason: "signer.secretUnavailable: $A_2027 is not set", reportedAt: at.addingTimeInterval(1)),
        ]
        try await identities.record(reports, forgetBefore: .distantPast)
        var fixed = reports[1]
        fixed.loaded = true
        fixed.reason = nil
        fixed.reportedAt = at.addingTimeInterval(2)
        try await identities.record([fixed], forgetBefore: .distantPast)
        #expect(try await identities.reports() == [fixed, reports[0]], "one report per instance and revision, newest first")
        try await identities.record(
            [
                SigningIdentityReport(
                    instance: "c-3", orderTypeIdentifier: "order.com.a", revision: active.revision, loaded: true, reason: nil,
                    reportedAt: at.addingTimeInterval(3))
            ], forgetBefore: at.addingTimeInterval(1))
        #expect(try await identities.reports().map(\.instance) == ["c-3", "b-2"], "reports before the cut are forgotten")
        try await identities.forgetReports(of: "c-3")
        #expect(try await identities.reports().map(\.instance) == ["b-2"])

        // Activated only as checked: another revision staged since is not taken.
        #expect(try await identities.activate(orderTypeIdentifier: "order.com.a", revision: active.revision) == nil)
        #expect(try await identities.activate(orderTypeIdentifier: "order.com.a", revision: next.revision) == next)
        #expect(try await identities.identities() == [next])
        #expect(try await identities.stagedIdentities() == [])
        #expect(try await identities.activate(orderTypeIdentifier: "order.com.a", revision: next.revision) == nil)
        next.addedAt = Date(timeIntervalSince1970: 1_790_000_300)
        #expect(try await identities.stage(next) == false)
        #expect(try await identities.removeStaged(orderTypeIdentifier: "order.com.a"))
        #expect(try await identities.removeStaged(orderTypeIdentifier: "order.com.a") == false)
    }
}
