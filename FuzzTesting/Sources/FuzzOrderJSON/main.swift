import FuzzSupport
import OrderPackage

// order.json against the schema (ORDER-FORMAT.md §4). Properties: nothing crashes; a document
// without errors yields an order; every finding's message is bounded.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOrderJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let validation = OrderValidator().validate(FuzzInput.data(UnsafeRawPointer(start), count))
    FuzzInput.check(!validation.errors.isEmpty || validation.order != nil, "no errors and no order")
    for finding in validation.errors + validation.warnings {
        FuzzInput.check(finding.message.utf8.count <= 4096, "a \(finding.message.utf8.count)-byte message")
    }
    return 0
}

FuzzDriver.run(fuzzOrderJSON)
