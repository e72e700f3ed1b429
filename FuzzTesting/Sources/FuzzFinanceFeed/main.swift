import FinanceData
import FuzzSupport

// `orders finance import`'s feed decoder (JSON → accounts, balances, transactions). Properties:
// nothing crashes; rejections carry a bounded message.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzFinanceFeed(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    do throws(FinanceDataError) {
        _ = try FinanceFeed.read(FuzzInput.data(UnsafeRawPointer(start), count))
    } catch {
        FuzzInput.check(error.description.utf8.count <= 4096, "a \(error.description.utf8.count)-byte message")
    }
    return 0
}

FuzzDriver.run(fuzzFinanceFeed)
