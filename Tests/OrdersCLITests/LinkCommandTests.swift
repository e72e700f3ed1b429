import Foundation
import OrderStorage
import TestArchiveTable
import Testing
import WalletOrders

@Suite("orders link")
struct LinkCommandTests {
    /// A store holding the full test order (with a token) and one without a token.
    static func store() async throws -> (folder: URL, store: String) {
        let folder = try TemporaryDirectory.make("link")
        let store = folder.appendingPathComponent("orders.sqlite").path
        let tokenless = folder.appendingPathComponent("tokenless.order")
        try TestOrderArchive.make(orderIdentifier: "NO-TOKEN") { order in
            order["authenticationToken"] = nil
            order["webServiceURL"] = nil
        }.write(to: tokenless)
        let added = try await OrdersProcess.run(
            ["add", "--yes", "--store", store, "--trust-root", "pki/root.pem", "valid/full.order", tokenless.path])
        #expect(added.status == 0, "\(added.stderr)")
        return (folder, store)
    }

    @Test("prints the page's path, signed with the stored token; --base-url makes it absolute")
    func link() async throws {
        let (folder, store) = try await Self.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await OrdersProcess.run(
            ["link", "--type", "order.com.example.shop", "--id", "ORDER-FULL-1", "--expires", "7d", "--store", store])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.lines.first)
        let expires = try #require(Int64(line.split(separator: "=")[1].split(separator: "&")[0]))
        #expect(abs(Double(expires) - Date().addingTimeInterval(7 * 86_400).timeIntervalSince1970) < 120)
        let identifier = FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "ORDER-FULL-1")
        let expected = OrderPageLink(
            for: identifier, authenticationToken: "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b",
            expires: Date(timeIntervalSince1970: Double(expires)))
        #expect(line == expected.path)
        let absolute = try await OrdersProcess.run(
            [
                "link", "--type", "order.com.example.shop", "--id", "ORDER-FULL-1", "--base-url", "https://orders.example.com/",
                "--store", store,
            ])
        #expect(
            absolute.lines.first?.hasPrefix("https://orders.example.com/orders/order.com.example.shop/ORDER-FULL-1?expires=")
                == true)
    }

    @Test("not stored, or no authenticationToken: exit 1; a bad --expires or --base-url: exit 2")
    func refusals() async throws {
        let (folder, store) = try await Self.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unknown = try await OrdersProcess.run(["link", "--type", "order.com.example.shop", "--id", "NOPE", "--store", store])
        #expect(unknown.status == 1 && unknown.stderr.contains("is not in the store"))
        let tokenless = try await OrdersProcess.run([
            "link", "--type", "order.com.example.shop", "--id", "NO-TOKEN", "--store", store,
        ])
        #expect(tokenless.status == 1 && tokenless.stderr.contains("has no authenticationToken"))
        for arguments in [
            ["--expires", "2020-01-01"], ["--expires", "401d"], ["--expires", "soon"], ["--base-url", "ftp://x"],
        ] {
            let result = try await OrdersProcess.run(
                ["link", "--type", "order.com.example.shop", "--id", "ORDER-FULL-1", "--store", store] + arguments)
            #expect(result.status == 2, "\(arguments)")
        }
    }
}
