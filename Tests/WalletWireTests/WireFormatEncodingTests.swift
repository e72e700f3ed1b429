import Foundation
import OrderPackage
import OrderStorage
import Testing
import WalletCore
import WalletPrimitives
import WalletWire

@Suite("WireFormat: the one JSON configuration")
struct WireFormatEncodingTests {
    @Test("keys sorted, slashes unescaped, absent values written as null, one line")
    func configuration() throws {
        let line = try WireFormat.line(WireIssue(code: "store.unavailable", message: "a/b"))
        #expect(line == #"{"code":"store.unavailable","message":"a/b","path":null}"#)
    }

    @Test("an invalid archive's error carries its report; other errors carry none")
    func errorBody() throws {
        let report = VerificationReport(oversizedArchiveOf: 11, limit: 10)
        let invalid = WireError(OrderStoreError.invalidArchive(report))
        #expect(invalid.error.code == "store.invalidArchive")
        #expect(invalid.report != nil)
        let storage = WireError(StorageError(reason: "gone"))
        #expect(storage.error.code == "store.unavailable" && storage.error.message == "gone")
        #expect(storage.report == nil)
        let json = try #require(
            try JSONSerialization.jsonObject(with: WireFormat.encode(storage)) as? [String: Any])
        #expect(json["report"] is NSNull)
    }

    @Test("instants as RFC 3339 text")
    func instants() throws {
        struct Stamp: Encodable { var at: Date }
        let text = try WireFormat.line(Stamp(at: Date(timeIntervalSince1970: 1_790_000_000)))
        #expect(text == #"{"at":"2026-09-21T14:13:20Z"}"#)
    }
}
