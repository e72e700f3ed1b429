/// One step of the PostgreSQL schema: applied once, in order, never edited once released (a new
/// step is added instead), recorded in `walletSchema` by version and name.
struct PostgresMigration: Sendable {
    var version: Int
    var name: String
    /// Statements, run in order inside the migration transaction.
    var statements: [String]
}
