import Foundation
import TestArchiveTable
import Testing
import WalletPrimitives

/// The version a user sees comes from one place (``WalletPrimitives/WalletOrdersVersion``), and
/// CHANGELOG.md's newest release says the same number.
@Suite("The version: one number, everywhere a user sees it")
struct VersionTests {
    @Test("orders --version prints WalletOrdersVersion.current, the newest release in CHANGELOG.md")
    func versionEverywhere() async throws {
        let result = try await OrdersProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == WalletOrdersVersion.current + "\n")
        let changelog = try String(
            contentsOf: TestArchiveTable.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let released = changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0.dropFirst(3).first?.isNumber == true }
        #expect(released?.dropFirst(3).split(separator: " ").first.map(String.init) == WalletOrdersVersion.current)
        #expect(WalletOrdersVersion.userAgent == "wallet-orders/\(WalletOrdersVersion.current)")
    }
}
