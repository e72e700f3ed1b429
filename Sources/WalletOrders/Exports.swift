// `import WalletOrders` gives the whole library: verification, orders, the shared core and
// financial data, under the FinanceStore facade, and the backend protocol. It exports no backend:
// `WalletStore(path:)` opens SQLite without an import; code that names `SQLiteBackend` or
// `PostgresBackend` imports `WalletSQLite` or `WalletPostgres`.
@_exported import FinanceData
@_exported import OrderPackage
@_exported import OrderStorage
@_exported import OrderTracking
@_exported import WalletConsent
@_exported import WalletCore
@_exported import WalletPrimitives
@_exported import WalletStorage
