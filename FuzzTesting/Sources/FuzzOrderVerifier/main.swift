import Foundation
import FuzzSupport
import OrderPackage

// The whole verifier, archive bytes to report, with the test PKI trusted and a fixed clock.
// Properties: nothing crashes; a valid report has an order and a signer; every issue's message is
// bounded; the report's digest is the input's.
private let verifier: OrderVerifier = {
    let root = FuzzInput.repositoryFile("TestArchives/pki/root.pem")
    guard let store = try? TrustStore.apple.adding(roots: [root]) else { fatalError("the test root does not load") }
    return OrderVerifier(trustStore: store, clock: { Date(timeIntervalSince1970: 1_790_000_000) })
}()

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOrderVerifier(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let report = verifier.verify(FuzzInput.data(UnsafeRawPointer(start), count), at: .signingTime)
    if report.isValid {
        FuzzInput.check(report.order != nil && report.signer != nil, "valid without an order or a signer")
    }
    for issue in report.errors + report.warnings {
        FuzzInput.check(issue.message.utf8.count <= 4096, "a \(issue.message.utf8.count)-byte message")
    }
    return 0
}

FuzzDriver.run(fuzzOrderVerifier)
