import Foundation
import GRDB
import WalletCore

/// Every table of the store, in one migrator: the shared core (`core.`), orders (`orders.`) and
/// financial data (`finance.`). Identifiers and their order are those stores have been written
/// with since the first release, so existing files upgrade in place; a migration is never edited,
/// only added.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        CoreTables.register(in: &migrator)
        OrderTables.register(in: &migrator)
        FinanceTables.register(in: &migrator)
        WebServiceTables.register(in: &migrator)
        return migrator
    }

    /// The module prefixes of the migration identifiers (`core`, `orders`, `finance`): a
    /// migration table holding only these is this tool's.
    static let modulePrefixes = Set(migrator.migrations.map(modulePrefix(of:)))

    /// `orders` for `orders.v1`.
    static func modulePrefix(of identifier: String) -> String {
        String(identifier.prefix { $0 != "." })
    }
}
