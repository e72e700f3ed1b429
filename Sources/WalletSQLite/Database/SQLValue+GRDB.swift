import Foundation
import GRDB
import WalletCore
import WalletStorage

extension StatementArguments {
    /// The arguments, bound in order. Mapped lazily: GRDB copies the sequence into its own array
    /// once (an eager map here would allocate a second one per statement).
    init(_ values: [SQLValue]) {
        self.init(
            values.lazy.map { value -> DatabaseValue in
                switch value {
                case .null: .null
                case .integer(let integer): integer.databaseValue
                case .text(let text): text.databaseValue
                case .blob(let data): data.databaseValue
                }
            })
    }
}
