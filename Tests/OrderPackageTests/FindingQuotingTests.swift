import Foundation
import OrderPackage
import Testing
import WalletPrimitives

@Suite("Findings quote order.json values as messages do")
struct FindingQuotingTests {
    @Test("order.json values in findings are quoted the same way")
    func findings() {
        let url = String(repeating: "x", count: 50_000)
        let json = #"{"merchant": {"url": "\#(url)"}}"#
        let report = OrderValidator().validate(Data(json.utf8))
        let message = report.errors.first { $0.path == "merchant.url" }?.message ?? ""
        #expect(message.contains("… (50000 characters)"))
        #expect(message.count < 300)
    }
}
