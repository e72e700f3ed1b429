import GRDB
import WalletStorage

/// GRDB's rows, read by column index as ``WalletStorage/FinanceRows`` reads every backend's.
extension Row: FinanceRowReading {
    package func text(_ index: Int) throws -> String { self[index] }
    package func optionalText(_ index: Int) throws -> String? { self[index] }
    package func integer(_ index: Int) throws -> Int64 { self[index] }
    package func optionalInteger(_ index: Int) throws -> Int64? { self[index] }
}
