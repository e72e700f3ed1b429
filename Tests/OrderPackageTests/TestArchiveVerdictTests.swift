import Foundation
import OrderPackage
import TestArchiveTable
import Testing
import WalletPrimitives

/// Every archive in TestArchives/ gets exactly the verdict and codes its table row names.
@Suite("TestArchives verdicts through the library")
struct TestArchiveVerdictTests {
    static let verifier: OrderVerifier = {
        // swift-format-ignore: a test fixture; a missing test root fails every row loudly.
        (try? OrderVerifier(trustStore: TestArchiveTable.trustStore())) ?? OrderVerifier()
    }()

    @Test("the table is present and large enough to mean something")
    func tableLoads() {
        #expect(TestArchiveTable.rows.count >= 60)
    }

    @Test("verdict and codes", arguments: TestArchiveTable.rows)
    func verdict(_ row: TestArchiveTable.Row) throws {
        let report = Self.verifier.verify(try Data(contentsOf: row.url), at: row.time)
        #expect(report.isValid == row.valid, "\(report.errors)")
        #expect(Set(report.errors.map(\.code.rawValue)) == row.errorCodes)
        #expect(Set(report.warnings.map(\.code.rawValue)) == row.warningCodes)
        #expect(report.errors.allSatisfy { !$0.message.isEmpty })
    }

    @Test("every stable code is produced by at least one archive")
    func everyCodeIsCovered() {
        let produced = TestArchiveTable.rows.reduce(into: Set<String>()) { $0.formUnion($1.errorCodes.union($1.warningCodes)) }
        let all = Set(VerificationIssue.Code.allCases.map(\.rawValue))
        #expect(all.subtracting(produced).isEmpty, "codes no archive produces: \(all.subtracting(produced).sorted())")
        #expect(produced.subtracting(all).isEmpty, "table names unknown codes: \(produced.subtracting(all).sorted())")
    }

    @Test("error codes and warning codes are listed in the right column")
    func codeSeverity() {
        for row in TestArchiveTable.rows {
            for code in row.errorCodes { #expect(VerificationIssue.Code(rawValue: code)?.isError == true, "\(code)") }
            for code in row.warningCodes { #expect(VerificationIssue.Code(rawValue: code)?.isError == false, "\(code)") }
        }
    }

    @Test("a valid archive reports its facts")
    func facts() throws {
        let report = Self.verifier.verify(try TestArchiveTable.data("valid/basic.order"))
        #expect(report.isValid)
        #expect(report.orderTypeIdentifier == "order.com.example.shop")
        #expect(report.orderIdentifier == "ORDER-123")
        #expect(report.updatedAt?.text == "2026-01-15T09:30:00.125Z")
        #expect(report.createdAt?.text == "2026-01-15T09:30:00Z")
        #expect(report.status == "open")
        #expect(report.merchantDisplayName == "Example Shop")
        #expect(report.teamIdentifier == "ABCDE12345")
        #expect(report.signerSubject?.hasPrefix("UID=order.com.example.shop,CN=Order Type ID: order.com.example.shop") == true)
        #expect(report.signingTime == RFC3339Timestamp("2026-01-15T10:00:00Z")?.date)
        #expect(report.leafNotAfter == RFC3339Timestamp("2055-12-31T23:59:59Z")?.date)
        #expect(report.signer?.chain.count == 3)
        #expect(report.signer?.digestAlgorithm == "sha256")
        #expect(report.order?.payment?.total.amount == Decimal(string: "49.00"))
    }

    @Test("problems carry the JSON path or entry name they concern")
    func paths() throws {
        let every = Self.verifier.verify(try TestArchiveTable.data("invalid/order-every-problem.order"))
        let located = Set(every.errors.compactMap { issue in issue.path.map { "\(issue.code.rawValue) \($0)" } })
        #expect(
            located == [
                "order.missingKey orderType", "order.invalidDate createdAt", "order.invalidValue merchant.url",
                "order.missingKey fulfillments[1].displayName", "order.invalidValue fulfillments[1].location.latitude",
                "order.missingResource lineItems[0].image",
            ])
        let values = Self.verifier.verify(try TestArchiveTable.data("invalid/order-invalid-values.order"))
        #expect(
            Set(values.errors.compactMap(\.path)) == [
                "status", "fulfillments[0].status", "payment.total.currency", "lineItems[0].price.amount", "webServiceURL",
                "authenticationToken",
            ])
        let unsafe = Self.verifier.verify(try TestArchiveTable.data("invalid/unsafe-paths.order"))
        #expect(Set(unsafe.errors.compactMap(\.path)) == ["/etc/evil", "images\\logo.png", "C:/evil.txt", "a//b.txt"])
    }

    @Test("a Wallet pass is told apart from an order")
    func passHint() throws {
        let report = Self.verifier.verify(try TestArchiveTable.data("invalid/wallet-pass.order"))
        let missing = report.errors.first { $0.code == .archiveMissingFile }
        #expect(missing?.path == "order.json")
        #expect(missing?.message.contains("Wallet pass") == true)
    }

    @Test("Apple's roots alone do not trust the test PKI")
    func appleRootsOnly() throws {
        let report = OrderVerifier().verify(try TestArchiveTable.data("valid/basic.order"))
        #expect(report.errorCodes == [.signatureUntrustedChain])
    }
}
