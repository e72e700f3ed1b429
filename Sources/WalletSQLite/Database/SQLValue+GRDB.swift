import Foundation
import GRDB
import WalletCore
import WalletStorage

extension StatementArguments {
    /// The renderer's arguments, bound in order.
    init(_ values: [SQLValue]) {
        self.init(
            values.map { value -> DatabaseValue in
                switch value {
                case .null: .null
                case .integer(let integer): integer.databaseValue
                case .text(let text): text.databaseValue
                case .blob(let data): data.databaseValue
                }
            })
    }
}
